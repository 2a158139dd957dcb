package dev.strata.server.raft;

import dev.strata.proto.v1.MemberDirectory;
import dev.strata.proto.v1.MemberRecord;
import dev.strata.proto.v1.Query;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.exceptions.ServerNotReadyException;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Refuses to start a voter on an empty data directory when the running cluster knows it has run
 * before: its disk was replaced or wiped, and with it the log it acknowledged and the votes it
 * cast. Raft counts on a voter keeping both; started empty it could help elect a leader that
 * lacks committed writes. etcd refuses such a start the same way ("member has already been
 * bootstrapped").
 *
 * <p>Every member records itself in the replicated member directory once it runs (see
 * {@code RaftNode}), so a peer's directory naming this node means it ran with the data that is
 * gone. A fresh cluster's members start with no record, whether together or one after another.
 * The check asks every configured peer it can reach; when none answers (the whole cluster is
 * down) it cannot tell and lets the start go on, as etcd does. A node that starts empty to join
 * waits while the cluster still lists it: it would rejoin as the voter it was.
 */
final class ReplacedDiskGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ReplacedDiskGuard.class);
    /** How long one peer's answer may take. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(3);
    /** How long to wait for peers that are starting (they answer "not ready" until they serve). */
    static final Duration STARTING_PEERS_PATIENCE = Duration.ofSeconds(10);
    private static final long RETRY_PAUSE_MS = 200;
    /** How often a joining node that the cluster still lists asks again. */
    private static final long LISTED_RECHECK_MS = 1000;

    /** Thrown when the start is refused; the message says why and what to do. */
    static final class ReplacedDiskException extends IOException {
        ReplacedDiskException(String message) {
            super(message);
        }
    }

    private ReplacedDiskGuard() {
    }

    /**
     * Whether a node with these directories has nothing on disk: no Raft storage and no engine
     * files. A directory seeded from a backup has engine files and is not empty.
     */
    static boolean nothingOnDisk(Path raftDir, Path engineDir) throws IOException {
        return isEmpty(raftDir) && isEmpty(engineDir);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return !Files.exists(dir);
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    /**
     * Asks each peer for its member directory. A node starting as a voter is refused when one
     * records it; a node starting to join waits until none does, so it can be started before or
     * after {@code strata member-replace} removes it.
     *
     * @param ask a client that talks to the one peer given
     * @throws ReplacedDiskException naming the peer that knows this node, and the procedure
     */
    static void check(long selfId, boolean joining, List<RaftPeer> peers, Function<RaftPeer, RaftClient> ask)
            throws ReplacedDiskException {
        boolean told = false;
        while (true) {
            Optional<RaftPeer> knowing = askAll(selfId, peers, ask);
            if (knowing.isEmpty()) {
                return;
            }
            String refusal = refusal(selfId, joining, knowing.get());
            if (!joining) {
                throw new ReplacedDiskException(refusal);
            }
            if (!told) {
                LOG.warn("node {}: waits: {}", selfId, refusal);
                told = true;
            }
            if (!sleep(LISTED_RECHECK_MS)) {
                throw new ReplacedDiskException("interrupted while waiting for the cluster to remove node " + selfId);
            }
        }
    }

    /** The first peer whose directory records {@code selfId}, asking peers that are starting again for a while. */
    private static Optional<RaftPeer> askAll(long selfId, List<RaftPeer> peers, Function<RaftPeer, RaftClient> ask) {
        List<RaftPeer> waiting = new ArrayList<>(peers);
        List<String> answered = new ArrayList<>();
        long deadline = System.nanoTime() + STARTING_PEERS_PATIENCE.toNanos();
        while (!waiting.isEmpty()) {
            List<RaftPeer> starting = new ArrayList<>();
            for (RaftPeer peer : waiting) {
                PeerAnswer a = askOne(peer, ask);
                switch (a) {
                    case PeerAnswer.Directory d -> {
                        if (recordsNode(d.directory(), selfId)) {
                            return Optional.of(peer);
                        }
                        answered.add(peer.getId().toString());
                    }
                    case PeerAnswer.Starting s -> starting.add(peer);
                    case PeerAnswer.Unreachable u -> LOG.info("node {}: peer {} at {} does not answer ({}); it cannot say whether it knows this node",
                            selfId, peer.getId(), peer.getAddress(), u.reason());
                }
            }
            waiting = starting;
            if (waiting.isEmpty() || System.nanoTime() > deadline || !sleep(RETRY_PAUSE_MS)) {
                break;
            }
        }
        if (answered.isEmpty()) {
            LOG.info("node {}: starts on an empty data directory and no peer answered to say whether the cluster knows it "
                    + "(as when a new cluster starts); a member that ran before and lost its disk is replaced as "
                    + "docs/server.md says", selfId);
        } else {
            LOG.info("node {}: starts on an empty data directory; peers {} do not know it, so it is a new member", selfId, answered);
        }
        return Optional.empty();
    }

    /** Whether {@code directory} has a record for {@code nodeId}. */
    static boolean recordsNode(MemberDirectory directory, long nodeId) {
        return directory.getMembersList().stream().mapToLong(MemberRecord::getId).anyMatch(id -> id == nodeId);
    }

    static String refusal(long selfId, boolean joining, RaftPeer peer) {
        String known = "peer " + peer.getId() + " at " + peer.getAddress() + " records it";
        if (joining) {
            return "node " + selfId + " starts to join on an empty data directory, but the cluster still lists it as a member ("
                    + known + "): as that member it would vote without the log and votes it had. It starts once the "
                    + "cluster has removed it: `strata member-replace " + selfId + "` removes it and adds it back "
                    + "(docs/server.md, \"Replacing a member's disk\")";
        }
        return "node " + selfId + " starts on an empty data directory, but the cluster knows it as a member that has run ("
                + known + "): its Raft log and votes are gone, and voting without them could elect a leader that lacks "
                + "committed writes. Replace it as a new member: run `strata member-replace " + selfId + "`, then start this "
                + "node with --join (docs/server.md, \"Replacing a member's disk\")";
    }

    /** What one peer said. */
    private sealed interface PeerAnswer {
        record Directory(MemberDirectory directory) implements PeerAnswer {
        }

        record Starting() implements PeerAnswer {
        }

        record Unreachable(String reason) implements PeerAnswer {
        }
    }

    private static PeerAnswer askOne(RaftPeer peer, Function<RaftPeer, RaftClient> ask) {
        Message query = Message.valueOf(UnsafeByteOperations.unsafeWrap(Query.newBuilder().setMembers(true).build().toByteArray()));
        try (RaftClient client = ask.apply(peer)) {
            // A stale read at index 0: the peer answers from its own applied directory, leader or
            // not. Sent on the client's transport directly: its ordered API logs every refused
            // connection as an error, and a peer that is down is expected here.
            RaftClientRequest request = RaftClientRequest.newBuilder()
                    .setClientId(client.getId())
                    .setServerId(peer.getId())
                    .setGroupId(client.getGroupId())
                    .setCallId(1)
                    .setMessage(query)
                    .setType(RaftClientRequest.staleReadRequestType(0))
                    .build();
            RaftClientReply reply = client.getClientRpc().sendRequestAsyncUnordered(request)
                    .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (!reply.isSuccess()) {
                return classify(reply.getException());
            }
            return new PeerAnswer.Directory(MemberDirectory.parseFrom(reply.getMessage().getContent().asReadOnlyByteBuffer()));
        } catch (ExecutionException e) {
            return classify(e.getCause());
        } catch (TimeoutException e) {
            return new PeerAnswer.Unreachable("no answer within " + ASK_TIMEOUT.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PeerAnswer.Unreachable("interrupted");
        } catch (IOException e) {
            return classify(e);
        }
    }

    private static PeerAnswer classify(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ServerNotReadyException) {
                return new PeerAnswer.Starting();
            }
        }
        return new PeerAnswer.Unreachable(String.valueOf(t));
    }

    /** Sleeps; false when interrupted. */
    private static boolean sleep(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
