package dev.strata.testkit.cluster;

import dev.strata.proto.v1.Member;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberListRequest;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.testkit.Ports;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Membership changes of a {@link ProcessCluster} as an operator makes them through the admin
 * API: adding a node (join, learner, promotion), removing one, and the ways a node whose disk
 * was wiped is brought back or held back. Each waits until the change is done or its timeout
 * passes.
 */
public final class ClusterMembership {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);
    /** The id of a member no cluster here ever has: a stale command line's only peer. */
    private static final long GONE_MEMBER = 999;

    private final ProcessCluster cluster;

    ClusterMembership(ProcessCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Starts a new node in join mode, adds it as a learner, waits until it caught up, and promotes
     * it; returns its id.
     */
    public long addNode(Duration timeout) {
        long id = cluster.nextId++;
        ProcessCluster.Node n = new ProcessCluster.Node(id, Ports.free(), Ports.free(), Ports.free(), true);
        cluster.members.put(id, n);
        try {
            cluster.startNode(id);
            join(n, timeout);
            return id;
        } catch (RuntimeException e) {
            boolean member;
            try {
                member = configured(id).isPresent();
            } catch (RuntimeException unknown) {
                // No leader to ask whether the add went through. Stopping the node either way is
                // safe for the checks: an added member that is down is a node the cluster
                // tolerates losing, while a running non-member would be expected to hold data it
                // never received.
                e.addSuppressed(unknown);
                member = false;
            }
            if (!member) {
                // Not a member: the cluster goes on without it.
                cluster.kill9(id);
                cluster.members.remove(id);
                cluster.closeProxy(id);
            }
            throw e;
        }
    }

    /**
     * Brings back a stopped node whose data directory is gone, as an operator replaces a disk:
     * remove the member, then add it again, empty, through join, learner and promotion. (Started
     * in place as a voter it would break Raft's assumption that a node keeps what it
     * acknowledged; the node holds back, see {@link #startInPlaceExpectingHoldBack}.)
     */
    public void replaceWipedNode(long id, Duration timeout) {
        if (cluster.running(id)) {
            throw new IllegalStateException("node " + id + " must be stopped to be replaced");
        }
        removeFromConfiguration(id, timeout);
        join(startJoining(id), timeout);
    }

    /**
     * Replaces a wiped node as {@link #replaceWipedNode} does, but starts it in join mode first,
     * while the cluster still lists it as a voter, as an operator may: it must wait until it has
     * been removed before it starts, then it is added and promoted.
     */
    public void replaceWipedNodeStartedFirst(long id, Duration timeout) {
        if (cluster.running(id)) {
            throw new IllegalStateException("node " + id + " must be stopped to be replaced");
        }
        cluster.heldBack.add(id);
        ProcessCluster.Node fresh;
        try {
            fresh = startJoining(id);
            removeFromConfiguration(id, timeout);
        } finally {
            cluster.heldBack.remove(id);
        }
        join(fresh, timeout);
    }

    /**
     * Starts stopped node {@code id}, whose data directory was wiped, in place as the voter it
     * was, and checks that it holds back: within {@code timeout} its log says it waits, neither
     * voting nor serving, and its client port does not answer. Throws otherwise, after killing it.
     */
    public void startInPlaceExpectingHoldBack(long id, Duration timeout) {
        // Either refusal: started as a voter, or (a node that joined once) to join while still listed.
        startExpectingWait(id, "so it waits", "wiped and started in place", timeout);
    }

    /**
     * Starts stopped node {@code id}, whose data directory was wiped, to join with a command line
     * naming only a member that is gone (an id no cluster has, on a port nothing listens on), as
     * one written before the membership changed would; checks that within {@code timeout} its log
     * says no peer answers and it waits, and that its client port does not answer. Throws
     * otherwise, after killing it. The node stays held back until it is killed.
     */
    public void startToJoinAskingGonePeersExpectingWait(long id, Duration timeout) {
        cluster.nextStartSettings.put(id, Map.of("strata.cluster.join", "true",
                "strata.cluster.peers", GONE_MEMBER + "=127.0.0.1:" + Ports.free() + ":" + Ports.free()));
        try {
            startExpectingWait(id, "none of its peers", "wiped and started to join asking only a member that is gone", timeout);
        } finally {
            cluster.nextStartSettings.remove(id);
        }
    }

    /** Starts node {@code id} held back and waits for its log to say {@code logSays} while its client port stays shut. */
    private void startExpectingWait(long id, String logSays, String how, Duration timeout) {
        long logBefore = cluster.log(id).toFile().length();
        cluster.heldBack.add(id);
        try {
            cluster.startNode(id);
            ProcessCluster.await(() -> logSince(id, logBefore).contains(logSays), timeout, "node " + id + ", " + how + ", to say it waits");
            if (cluster.status(id).isPresent()) {
                throw new IllegalStateException("node " + id + ", " + how + ", serves although it waits");
            }
        } catch (RuntimeException e) {
            cluster.kill9(id);
            cluster.heldBack.remove(id);
            throw e;
        }
    }

    /** Removes node {@code id}, held back after a wipe, and walks it into the voters again. */
    public void replaceHeldBackNode(long id, Duration timeout) {
        removeFromConfiguration(id, timeout);
        cluster.heldBack.remove(id);
        join(cluster.members.get(id), timeout);
    }

    private String logSince(long id, long offset) {
        try (var in = Files.newInputStream(cluster.log(id))) {
            in.skipNBytes(Math.min(offset, Files.size(cluster.log(id))));
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + cluster.log(id), e);
        }
    }

    /**
     * The first half of a replacement: removes stopped, wiped node {@code id}, starts it to join
     * and adds it as a learner, and returns while it catches up.
     */
    public void addWipedNodeAsLearner(long id, Duration timeout) {
        removeFromConfiguration(id, timeout);
        ProcessCluster.Node n = startJoining(id);
        ProcessCluster.await(() -> cluster.status(id).isPresent(), timeout, "node " + id + " to start");
        ProcessCluster.await(() -> {
            if (configured(id).isEmpty()) {
                addAsLearner(n, timeout);
            }
            return configured(id).isPresent();
        }, timeout, "node " + id + " to be added as a learner");
    }

    /** Starts learner {@code id}, stopped and wiped while it caught up, again to join; waits until it is promoted. */
    public void restartWipedLearner(long id, Duration timeout) {
        ProcessCluster.Node n = cluster.members.get(id);
        cluster.startNode(id);
        join(n, timeout);
    }

    /**
     * Waits until the log of node {@code id} says the replicated member directory records it, so
     * a start on a wiped disk would be held back (a node records itself about a second after it
     * first runs with a leader).
     */
    public void awaitRecordedInDirectory(long id, Duration timeout) {
        ProcessCluster.await(() -> logContains(id, "the member directory records node " + id), timeout,
                "node " + id + " to be recorded in the member directory");
    }

    private boolean logContains(long id, String text) {
        try {
            return Files.exists(cluster.log(id)) && Files.readString(cluster.log(id), StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + cluster.log(id), e);
        }
    }

    private void removeFromConfiguration(long id, Duration timeout) {
        ProcessCluster.await(() -> {
            if (configured(id).isPresent()) {
                long leader = cluster.awaitLeader(timeout);
                LOG.info("removing node {} through leader {}", id, leader);
                cluster.membershipCall(leader).memberRemove(MemberRemoveRequest.newBuilder().setId(id).build());
            }
            return configured(id).isEmpty();
        }, timeout, "node " + id + " to leave the configuration");
    }

    /** Starts node {@code id} afresh in join mode on its old ports. */
    private ProcessCluster.Node startJoining(long id) {
        ProcessCluster.Node old = cluster.members.get(id);
        ProcessCluster.Node fresh = new ProcessCluster.Node(id, old.clientPort(), old.raftPort(), old.proxyPort(), true);
        cluster.members.put(id, fresh);
        cluster.startNode(id);
        return fresh;
    }

    /**
     * Walks started node {@code n} (join mode) into the voters. A membership call that
     * times out may still complete (Ratis goes on with it), and a promotion that fails halfway
     * leaves the node out of the configuration (see {@code RaftNode.promote}), so each step
     * looks at the configuration and does what is left.
     */
    private void join(ProcessCluster.Node n, Duration timeout) {
        long id = n.id();
        ProcessCluster.await(() -> cluster.status(id).isPresent(), timeout, "node " + id + " to start");
        ProcessCluster.await(() -> {
            Optional<Member> m = configured(id);
            if (m.isEmpty()) {
                addAsLearner(n, timeout);
            } else if (m.get().getIsLearner()) {
                cluster.awaitCaughtUp(id, timeout);
                cluster.membershipCall(cluster.awaitLeader(timeout)).memberPromote(MemberPromoteRequest.newBuilder().setId(id).build());
            } else {
                return true;
            }
            return false;
        }, timeout, "node " + id + " to be added, caught up and promoted");
    }

    /** Asks the leader to add started node {@code n} as a learner. */
    private void addAsLearner(ProcessCluster.Node n, Duration timeout) {
        cluster.membershipCall(cluster.awaitLeader(timeout)).memberAdd(MemberAddRequest.newBuilder().setId(n.id())
                .setRaftAddress(n.advertisedRaftAddress()).setClientAddress(n.clientAddress()).build());
    }

    /** Node {@code id} as the leader's configuration lists it, if it does. */
    private Optional<Member> configured(long id) {
        long leader = cluster.awaitLeader(Duration.ofSeconds(30));
        return cluster.admin(leader).memberList(MemberListRequest.getDefaultInstance()).getMembersList().stream()
                .filter(m -> m.getId() == id).findFirst();
    }

    /** Removes node {@code id} from the configuration, then stops its process. */
    public void removeNode(long id, Duration timeout) {
        removeFromConfiguration(id, timeout);
        cluster.terminate(id);
        cluster.members.remove(id);
        cluster.closeProxy(id);
    }
}
