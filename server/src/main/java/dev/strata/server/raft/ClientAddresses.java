package dev.strata.server.raft;

import dev.strata.proto.internal.v1.MemberDirectory;
import dev.strata.proto.internal.v1.MemberRecord;
import dev.strata.proto.internal.v1.Query;
import dev.strata.server.config.PeerSpec;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

/**
 * Where members' gRPC (client) ports are: the replicated directory first, else this node's
 * configured peer list; for a leader, else the leader's own answer.
 */
final class ClientAddresses {
    private static final Logger LOG = LoggerFactory.getLogger(ClientAddresses.class);

    private final long nodeId;
    private final LongFunction<String> recorded;
    private final Map<Long, PeerSpec> configuredPeers;
    private final RaftClients clients;

    /**
     * @param recorded the address the replicated directory records for a member, or null
     * @param clients  for asking a leader
     */
    ClientAddresses(long nodeId, LongFunction<String> recorded, Map<Long, PeerSpec> configuredPeers, RaftClients clients) {
        this.nodeId = nodeId;
        this.recorded = recorded;
        this.configuredPeers = configuredPeers;
        this.clients = clients;
    }

    /** A member's gRPC address: from the replicated directory, else from this node's peer list, else "". */
    String of(long id) {
        String inDirectory = recorded.apply(id);
        if (inDirectory != null) {
            return inDirectory;
        }
        PeerSpec configured = configuredPeers.get(id);
        return configured == null ? "" : configured.clientAddress();
    }

    /**
     * The client address of {@code leader}, where its checkpoint service listens: what this node
     * knows ({@link #of}), else the leader's own answer, asked over its Raft port. A node that
     * joined needs the second way: its copy of the directory is empty until it has caught up, and
     * its peer list (often none) need not name a leader that joined after it was written. "" when
     * neither way gives one.
     */
    String ofLeader(RaftPeer leader) {
        long id = Long.parseLong(leader.getId().toString());
        String known = of(id);
        if (!known.isEmpty() || leader.getAddress() == null || leader.getAddress().isEmpty()) {
            return known;
        }
        Message directoryQuery = RaftReplies.message(Query.newBuilder().setMembers(true).build());
        try (RaftClient asking = clients.newClient(List.of(leader), leader.getId(), RetryPolicies.noRetry())) {
            // A stale read at index 0: the leader answers from its directory without a ReadIndex round.
            RaftClientReply reply = RaftReplies.await(asking.async().sendStaleRead(directoryQuery, 0, leader.getId()),
                    Duration.ofSeconds(5), "asking node " + id + " for its client address");
            String asked = MemberDirectory.parseFrom(RaftReplies.content(reply).asReadOnlyByteBuffer()).getMembersList().stream()
                    .filter(m -> m.getId() == id).map(MemberRecord::getClientAddress).findFirst().orElse("");
            LOG.info("node {}: the leader {} gives its client address as '{}'", nodeId, id, asked);
            return asked;
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.warn("node {}: cannot ask the leader {} at {} for its client address: {}", nodeId, id,
                    leader.getAddress(), e.toString());
            return "";
        }
    }
}
