package dev.strata.server.raft;

import dev.strata.proto.internal.v1.MemberDirectory;
import dev.strata.proto.internal.v1.MemberRecord;
import dev.strata.proto.internal.v1.Query;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.exceptions.ServerNotReadyException;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
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
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Keeps a member that lost its disk from voting again as the member it was. Its disk was
 * replaced or wiped, and with it the log it acknowledged and the votes it cast; Raft counts on a
 * voter keeping both, and started empty as that voter it could help elect a leader that lacks
 * committed writes. etcd refuses such a start ("member has already been bootstrapped"); Strata
 * holds the node back instead, neither voting nor serving, until the cluster has removed it,
 * and then starts it as a new member waiting to be added (join mode). So `strata member-replace
 * ID` alone brings it back, also in a StatefulSet whose pod restarts with the same command.
 *
 * <p>Every member records itself in the replicated member directory once it runs as a voter
 * (see {@code RaftNode}), so a peer's directory naming this node means it ran with the data
 * that is gone. A fresh cluster's members start with no record, whether together or one after
 * another. The check asks every configured peer it can reach; when none answers (the whole
 * cluster is down) it cannot tell and lets a node configured as a voter start, as etcd does for a
 * member of a new cluster. A node that starts empty in join mode waits while the cluster still
 * lists it as a voter, and while no peer answers at all: it may be a voter that lost its disk
 * and whose command line names members that are gone, and etcd refuses a joining member that
 * cannot reach its cluster too.
 */
final class ReplacedDiskGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ReplacedDiskGuard.class);
    /** How long one peer's answer may take. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(3);
    /** How long to wait for peers that are starting (they answer "not ready" until they serve). */
    static final Duration STARTING_PEERS_PATIENCE = Duration.ofSeconds(10);
    private static final long RETRY_PAUSE_MS = 200;
    /** How often a node held back asks again whether the cluster has removed it. */
    private static final long LISTED_RECHECK_MS = 1000;

    private static final Question RECORDS = ReplacedDiskGuard::records;
    private static final Question LISTS_AS_VOTER = ReplacedDiskGuard::listsAsVoter;

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
     * Decides how a node with nothing on disk starts, asking each peer about node {@code selfId},
     * and holds it back while the cluster lists it as a voter. A node configured to join joins
     * once a peer answers that it does not list it as a voter. A node configured as a voter
     * starts as one when no peer's member directory records it (a new cluster); when one does,
     * it waits until a peer answers that its configuration does not list it as a voter, then
     * joins as a new member.
     *
     * @param ask a client that talks to the one peer given
     * @return whether the node must start in join mode
     * @throws InterruptedIOException when interrupted while held back
     */
    static boolean joinsAfterRemoval(long selfId, boolean configuredToJoin, List<RaftPeer> peers,
                                     Function<RaftPeer, RaftClient> ask) throws InterruptedIOException {
        if (peers.isEmpty()) {
            return configuredToJoin; // no peer to ask: a single node, or a joiner told of none
        }
        if (!configuredToJoin) {
            Answers recording = askAll(selfId, peers, ask, RECORDS);
            if (recording.knowing().isEmpty()) {
                return false;
            }
            LOG.warn("{}", heldBack(selfId, false, recording.knowing().get()));
        }
        boolean told = !configuredToJoin;
        boolean toldUnanswered = false;
        // Only a peer's answer ends the wait: one that does not answer may still list the node
        // as a voter, and started then it would vote as that voter once the leader reaches it.
        for (Answers listing = askAll(selfId, peers, ask, LISTS_AS_VOTER);
             listing.knowing().isPresent() || listing.answered().isEmpty();
             listing = askAll(selfId, peers, ask, LISTS_AS_VOTER)) {
            if (!told && listing.knowing().isPresent()) {
                LOG.warn("{}", heldBack(selfId, true, listing.knowing().get()));
                told = true;
            } else if (!toldUnanswered && listing.knowing().isEmpty()) {
                LOG.warn("{}", noPeerAnswers(selfId, peers));
                toldUnanswered = true;
            }
            if (!sleep(LISTED_RECHECK_MS)) {
                throw new InterruptedIOException("interrupted while waiting for the cluster to remove node " + selfId);
            }
        }
        if (told) {
            LOG.info("node {}: the cluster no longer lists it as a voter; it starts as a new member and waits to be added", selfId);
        }
        return true;
    }

    /** What the peers said: the first that knows the node, if one does, and those that answered before it. */
    private record Answers(Optional<RaftPeer> knowing, List<String> answered) {
    }

    /** Asks each peer {@code question} about {@code selfId}, asking peers that are starting again for a while. */
    private static Answers askAll(long selfId, List<RaftPeer> peers, Function<RaftPeer, RaftClient> ask, Question question) {
        List<RaftPeer> waiting = new ArrayList<>(peers);
        List<String> answered = new ArrayList<>();
        long deadline = System.nanoTime() + STARTING_PEERS_PATIENCE.toNanos();
        while (!waiting.isEmpty()) {
            List<RaftPeer> starting = new ArrayList<>();
            for (RaftPeer peer : waiting) {
                PeerAnswer a = askOne(peer, ask, question, selfId);
                switch (a) {
                    case PeerAnswer.Knows k -> {
                        return new Answers(Optional.of(peer), answered);
                    }
                    case PeerAnswer.DoesNotKnow d -> answered.add(peer.getId().toString());
                    case PeerAnswer.Starting s -> starting.add(peer);
                    case PeerAnswer.Unreachable u -> LOG.debug("node {}: peer {} at {} does not answer ({})",
                            selfId, peer.getId(), peer.getAddress(), u.reason());
                }
            }
            waiting = starting;
            if (waiting.isEmpty() || System.nanoTime() > deadline || !sleep(RETRY_PAUSE_MS)) {
                break;
            }
        }
        if (question == RECORDS) {
            if (answered.isEmpty()) {
                LOG.info("node {}: starts on an empty data directory and no peer answered to say whether the cluster knows it "
                        + "(as when a new cluster starts)", selfId);
            } else {
                LOG.info("node {}: starts on an empty data directory; peers {} do not know it, so it is a new member", selfId,
                        answered);
            }
        }
        return new Answers(Optional.empty(), answered);
    }

    /** Whether {@code directory} has a record for {@code nodeId}. */
    static boolean recordsNode(MemberDirectory directory, long nodeId) {
        return directory.getMembersList().stream().mapToLong(MemberRecord::getId).anyMatch(id -> id == nodeId);
    }

    /** Why node {@code selfId} is held back, and what ends it. */
    static String heldBack(long selfId, boolean configuredToJoin, RaftPeer peer) {
        String end = " It starts as a new member once the cluster has removed it: `strata member-replace " + selfId
                + "` removes it, adds it back as a learner and promotes it once it has caught up "
                + "(docs/server.md, \"Replacing a member's disk\").";
        if (configuredToJoin) {
            return "node " + selfId + " starts to join on an empty data directory, but the cluster still lists it as a voter "
                    + "(peer " + peer.getId() + " at " + peer.getAddress() + " does): as that voter it would vote without the "
                    + "log and votes it had, so it waits." + end;
        }
        return "node " + selfId + " starts on an empty data directory, but the cluster knows it as a member that has run "
                + "(peer " + peer.getId() + " at " + peer.getAddress() + " records it): its Raft log and votes are gone, and "
                + "voting without them could elect a leader that lacks committed writes, so it waits, neither voting nor "
                + "serving." + end;
    }

    /** Why node {@code selfId}, on an empty disk, waits for one of {@code peers} to answer. */
    static String noPeerAnswers(long selfId, List<RaftPeer> peers) {
        String listed = peers.stream().map(p -> p.getId() + " at " + p.getAddress()).collect(Collectors.joining(", "));
        return "node " + selfId + " starts on an empty data directory and none of its peers (" + listed + ") answers, so it "
                + "cannot tell whether the cluster still lists it as a voter: as that voter it would vote without the log "
                + "and votes it had, so it waits, neither voting nor serving, asking again. If these members are gone, "
                + "start it with the cluster's current members in --peers (docs/server.md, \"Replacing a member's disk\").";
    }

    /** What one peer said. */
    private sealed interface PeerAnswer {
        record Knows() implements PeerAnswer {
        }

        record DoesNotKnow() implements PeerAnswer {
        }

        record Starting() implements PeerAnswer {
        }

        record Unreachable(String reason) implements PeerAnswer {
        }
    }

    /** A question to one peer: does it know node {@code selfId} in the way that stops this start? */
    @FunctionalInterface
    private interface Question {
        boolean knows(RaftClient client, RaftPeer peer, long selfId) throws IOException, ExecutionException, TimeoutException,
                InterruptedException;
    }

    private static PeerAnswer askOne(RaftPeer peer, Function<RaftPeer, RaftClient> ask, Question question, long selfId) {
        try (RaftClient client = ask.apply(peer)) {
            return question.knows(client, peer, selfId) ? new PeerAnswer.Knows() : new PeerAnswer.DoesNotKnow();
        } catch (ExecutionException e) {
            return classify(e.getCause());
        } catch (TimeoutException e) {
            return new PeerAnswer.Unreachable("no answer within " + ASK_TIMEOUT.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PeerAnswer.Unreachable("interrupted");
        } catch (IOException e) {
            return classify(e);
        } catch (RuntimeException e) {
            // Ratis's blocking group-info call throws gRPC's unchecked status for a peer that is down.
            return classify(e);
        }
    }

    /** Whether the peer's member directory records the node: it ran as a voter, or was added. */
    private static boolean records(RaftClient client, RaftPeer peer, long selfId)
            throws IOException, ExecutionException, TimeoutException, InterruptedException {
        Message query = Message.valueOf(UnsafeByteOperations.unsafeWrap(Query.newBuilder().setMembers(true).build().toByteArray()));
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
            throw new ExecutionException(reply.getException());
        }
        return recordsNode(MemberDirectory.parseFrom(reply.getMessage().getContent().asReadOnlyByteBuffer()), selfId);
    }

    /**
     * Whether the peer's configuration lists the node as a voter (in its current or, during a
     * change, its previous voters). A learner that lost its disk may join again as it is.
     */
    private static boolean listsAsVoter(RaftClient client, RaftPeer peer, long selfId) throws IOException {
        GroupInfoReply info = client.getGroupManagementApi(peer.getId()).info(client.getGroupId());
        if (!info.isSuccess()) {
            throw info.getException() != null ? info.getException() : new IOException("no group info from peer " + peer.getId());
        }
        String self = Long.toString(selfId);
        return info.getConf().map(c -> Stream.concat(c.getPeersList().stream(), c.getOldPeersList().stream())
                .anyMatch(p -> p.getId().toStringUtf8().equals(self))).orElse(false);
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
