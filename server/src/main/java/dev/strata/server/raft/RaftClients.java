package dev.strata.server.raft;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.api.AdminApi;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The Ratis clients a node uses to reach its group: one shared client for reads served by the
 * leader, a client of its own for each admin call, and one-off clients to a given peer. Every
 * client goes over this node's transport and its TLS.
 */
final class RaftClients implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RaftClients.class);

    /** A blocking call of Ratis's admin API, made through {@link #admin}. */
    @FunctionalInterface
    interface AdminCall {
        RaftClientReply send(AdminApi admin) throws IOException;
    }

    private final long nodeId;
    private final RaftGroupId groupId;
    private final RaftProperties properties;
    private final Parameters parameters;
    private final RetryPolicy retryPolicy;
    private final Supplier<RaftServer.Division> division;
    private RaftClient shared;

    /**
     * @param retryPolicy how the shared client and admin calls retry
     * @param division    this node's Raft division, once started
     */
    RaftClients(long nodeId, RaftGroupId groupId, RaftProperties properties, Parameters parameters, RetryPolicy retryPolicy,
                Supplier<RaftServer.Division> division) {
        this.nodeId = nodeId;
        this.groupId = groupId;
        this.properties = properties;
        this.parameters = parameters;
        this.retryPolicy = retryPolicy;
        this.division = division;
    }

    /**
     * Sends one request through the shared client and returns the reply's content.
     *
     * <p>Ratis's ordered async client is single-use after a failure: once one request exhausts its
     * retries (or fails with an error it does not retry), its sliding window stays failed and
     * every later request is refused with {@code AlreadyClosedException}. So a client whose
     * request failed on the client side is retired and the next request builds a fresh one from
     * the membership this node knows then. A refusal by the state machine arrives as a reply,
     * not as a failed send, and keeps the client.
     */
    CompletableFuture<ByteBuffer> send(Function<RaftClient, CompletableFuture<RaftClientReply>> send) {
        RaftClient c;
        try {
            c = shared();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return send.apply(c)
                .whenComplete((reply, failure) -> {
                    if (failure != null) {
                        retire(c, failure);
                    }
                })
                .thenApply(reply -> RaftReplies.content(reply).asReadOnlyByteBuffer());
    }

    /**
     * Makes {@code call} on a Raft client of its own, closed afterwards. Not on the shared client:
     * that one is retired (closed) whenever a request on it fails, which under a failing disk or
     * lossy links can happen again and again while an admin call waits, and Ratis then gives up
     * on the call with "... is closed". Admin calls are rare, so a client each costs little.
     */
    RaftClientReply admin(AdminCall call) throws IOException {
        RaftClient own = newClient(voters(), division.get().getInfo().getLeaderId(), retryPolicy);
        try {
            return call.send(own.admin());
        } finally {
            closeInBackground(own, "an admin call's Raft client");
        }
    }

    /** A Ratis client of this node's group over {@code peers}, for the caller to close. */
    RaftClient newClient(Collection<RaftPeer> peers, RaftPeerId leader, RetryPolicy retry) {
        return RaftClient.newBuilder()
                .setClientId(ClientId.randomId())
                .setRaftGroup(RaftGroup.valueOf(groupId, peers))
                .setLeaderId(leader)
                .setProperties(properties)
                .setParameters(parameters)
                .setRetryPolicy(retry)
                .build();
    }

    /** The shared client, built on first use from the configuration this node knows then. */
    private synchronized RaftClient shared() {
        if (shared == null) {
            shared = newClient(voters(), division.get().getInfo().getLeaderId(), retryPolicy);
        }
        return shared;
    }

    /** Where requests go: the voters, since a learner cannot lead and a joining node lists only itself. */
    private Collection<RaftPeer> voters() {
        Collection<RaftPeer> peers = division.get().getRaftConf().getAllPeers(RaftPeerRole.FOLLOWER);
        if (peers.isEmpty()) {
            throw new NodeUnavailableException("node " + nodeId + " is not a member of a cluster yet; add it with Cluster/MemberAdd");
        }
        return peers;
    }

    /** Replaces {@code failed} by a new client on next use, unless another caller already did. */
    private void retire(RaftClient failed, Throwable why) {
        synchronized (this) {
            if (shared != failed) {
                return;
            }
            shared = null;
        }
        LOG.info("node {}: the Raft client failed a request ({}); the next request uses a new client", nodeId, why.toString());
        closeInBackground(failed, "the failed Raft client");
    }

    /**
     * Closes {@code c} on a thread of its own: closing waits up to seconds for the client's
     * channels to drain, and the caller may be one of that client's own threads.
     */
    private void closeInBackground(RaftClient c, String what) {
        Thread.ofVirtual().name("raft-client-close-" + nodeId).start(() -> {
            try {
                c.close();
            } catch (IOException e) {
                LOG.warn("node {}: closing {}: {}", nodeId, what, e.toString());
            }
        });
    }

    /** Closes the shared client, if one was built. */
    @Override
    public void close() throws IOException {
        RaftClient c;
        synchronized (this) {
            c = shared;
            shared = null;
        }
        if (c != null) {
            c.close();
        }
    }
}
