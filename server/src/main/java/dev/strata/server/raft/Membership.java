package dev.strata.server.raft;

import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.MemberRecord;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The group's members and the changes to them: adding a learner, promoting it, removing a
 * member, handing leadership to a voter. Every change is a compare-and-set of the configuration
 * this node sees, so two concurrent changes cannot silently undo each other, and each call
 * returns once the change is committed. Blocking; each call is bounded by the Raft client's
 * retry policy or by its timeout.
 */
final class Membership {
    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);
    /**
     * How long after a failed transfer call this node looks for the new leader: a new leader
     * announces itself with its first heartbeat, well within an election timeout.
     */
    private static final Duration LEADER_NOTICE = Duration.ofSeconds(3);

    private final Supplier<RaftServer.Division> division;
    private final RaftClients clients;
    private final ClientAddresses addresses;
    private final Function<Command, CompletableFuture<WriteReply>> write;

    /**
     * @param division this node's Raft division, once started
     * @param write    replicates a command (the member directory's records)
     */
    Membership(Supplier<RaftServer.Division> division, RaftClients clients, ClientAddresses addresses,
               Function<Command, CompletableFuture<WriteReply>> write) {
        this.division = division;
        this.clients = clients;
        this.addresses = addresses;
        this.write = write;
    }

    /** The current configuration's voters and learners, in id order. */
    List<Member> members() {
        RaftConfiguration conf = division.get().getRaftConf();
        List<Member> members = new ArrayList<>();
        if (conf.getCurrentPeers(RaftPeerRole.FOLLOWER).isEmpty()) {
            return members; // a joining node's placeholder (see RaftNode's joiningSelf): no cluster known yet
        }
        conf.getCurrentPeers(RaftPeerRole.FOLLOWER).forEach(p -> members.add(member(p, false)));
        conf.getCurrentPeers(RaftPeerRole.LISTENER).forEach(p -> members.add(member(p, true)));
        members.sort((a, b) -> Long.compare(a.id(), b.id()));
        return members;
    }

    private Member member(RaftPeer p, boolean learner) {
        long id = Long.parseLong(p.getId().toString());
        return new Member(id, p.getAddress(), addresses.of(id), learner);
    }

    /**
     * Adds node {@code id} as a learner (a Ratis listener): records its client address in the
     * replicated directory, then adds it to the configuration. Start the node (with join) first.
     */
    List<Member> addLearner(long id, String raftAddress, String clientAddress, Duration timeout) throws IOException, TimeoutException {
        RaftConfiguration conf = division.get().getRaftConf();
        if (conf.getPeer(RaftNode.peerId(id), RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER) != null) {
            throw new MembershipException(MembershipException.Reason.ALREADY_MEMBER, "node " + id + " is already a member");
        }
        RaftReplies.await(write.apply(Command.newBuilder()
                        .setSetMember(MemberRecord.newBuilder().setId(id).setClientAddress(clientAddress)).build()),
                timeout, "recording node " + id + "'s address");
        RaftPeer peer = RaftPeer.newBuilder().setId(RaftNode.peerId(id)).setAddress(raftAddress)
                .setStartupRole(RaftPeerRole.LISTENER).build();
        List<RaftPeer> listeners = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.LISTENER));
        listeners.add(peer);
        changeConfiguration(conf, new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.FOLLOWER)), listeners);
        LOG.info("node {} ({}, client {}) added as a learner", id, raftAddress, clientAddress);
        return members();
    }

    /**
     * Makes learner {@code id} a voter, in one configuration change that moves it from the
     * listeners to the voters. It stays in some configuration throughout: taking it out of the
     * listeners first and adding it back as a new voter would leave it, between the two changes,
     * listed nowhere (a node that times out then is shut down by Ratis), and would make the
     * leader stage it from index 0 again although it holds the log.
     */
    List<Member> promote(long id) throws IOException {
        RaftConfiguration conf = division.get().getRaftConf();
        RaftPeer learner = conf.getPeer(RaftNode.peerId(id), RaftPeerRole.LISTENER);
        if (learner == null) {
            throw conf.getPeer(RaftNode.peerId(id), RaftPeerRole.FOLLOWER) != null
                    ? new MembershipException(MembershipException.Reason.WRONG_ROLE, "node " + id + " is already a voter")
                    : new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "node " + id + " is not a member");
        }
        List<RaftPeer> voters = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.FOLLOWER));
        voters.add(RaftPeer.newBuilder(learner).setStartupRole(RaftPeerRole.FOLLOWER).build());
        List<RaftPeer> listeners = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.LISTENER));
        listeners.removeIf(p -> p.getId().equals(learner.getId()));
        changeConfiguration(conf, voters, listeners);
        LOG.info("node {} promoted to voter", id);
        return members();
    }

    /** Removes voter or learner {@code id} from the configuration and the directory. */
    List<Member> remove(long id, Duration timeout) throws IOException, TimeoutException {
        RaftConfiguration conf = division.get().getRaftConf();
        RaftPeerId target = RaftNode.peerId(id);
        if (conf.getPeer(target, RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER) == null) {
            throw new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "node " + id + " is not a member");
        }
        List<RaftPeer> voters = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.FOLLOWER));
        List<RaftPeer> listeners = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.LISTENER));
        voters.removeIf(p -> p.getId().equals(target));
        listeners.removeIf(p -> p.getId().equals(target));
        if (voters.isEmpty()) {
            throw new MembershipException(MembershipException.Reason.WRONG_ROLE, "node " + id + " is the last voter");
        }
        changeConfiguration(conf, voters, listeners);
        RaftReplies.await(write.apply(Command.newBuilder().setRemoveMember(id).build()), timeout,
                "dropping node " + id + "'s address");
        LOG.info("node {} removed", id);
        return members();
    }

    /**
     * Hands leadership to voter {@code id} and waits until it leads: until the call returns, or
     * until this node sees {@code id} lead, also within {@link #LEADER_NOTICE} after a failed call
     * (see {@link ObservedCall} for why Ratis can fail a transfer that succeeds).
     */
    void transferLeadership(long id, Duration timeout) throws IOException {
        RaftPeerId target = RaftNode.peerId(id);
        if (division.get().getRaftConf().getPeer(target, RaftPeerRole.FOLLOWER) == null) {
            throw new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "node " + id + " is not a voter");
        }
        ObservedCall.run(() -> RaftReplies.content(clients.admin(admin -> admin.transferLeadership(target, timeout.toMillis()))),
                () -> target.equals(division.get().getInfo().getLeaderId()), LEADER_NOTICE,
                "the transfer of leadership to node " + id);
        LOG.info("leadership transferred to node {}", id);
    }

    /** See {@link RaftNode#handOverLeadership}. */
    void handOverLeadership(Duration timeout) {
        RaftServer.Division d = division.get();
        if (d == null || !d.getInfo().isLeader()) {
            return;
        }
        Optional<RaftPeer> target = d.getRaftConf().getCurrentPeers(RaftPeerRole.FOLLOWER).stream()
                .filter(p -> !p.getId().equals(d.getId())).findFirst();
        if (target.isEmpty()) {
            return;
        }
        long id = Long.parseLong(target.get().getId().toString());
        try {
            transferLeadership(id, timeout);
            LOG.info("handed leadership to node {} before stopping", id);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not hand leadership to node {} before stopping (the others will elect one): {}", id, e.toString());
        }
    }

    private void changeConfiguration(RaftConfiguration current, List<RaftPeer> voters, List<RaftPeer> listeners) throws IOException {
        changeConfiguration(new ArrayList<>(current.getCurrentPeers(RaftPeerRole.FOLLOWER)),
                new ArrayList<>(current.getCurrentPeers(RaftPeerRole.LISTENER)), voters, listeners);
    }

    /**
     * Sets the configuration if it is still the expected one (compare-and-set), and waits until it
     * is committed: until the call returns or this node sees the change committed, whichever comes
     * first (see {@link ObservedCall}).
     */
    private void changeConfiguration(List<RaftPeer> expectedVoters, List<RaftPeer> expectedListeners,
                                     List<RaftPeer> voters, List<RaftPeer> listeners) throws IOException {
        SetConfigurationRequest.Arguments args = SetConfigurationRequest.Arguments.newBuilder()
                .setServersInNewConf(voters)
                .setListenersInNewConf(listeners)
                .setServersInCurrentConf(expectedVoters)
                .setListenersInCurrentConf(expectedListeners)
                .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                .build();
        ObservedCall.run(() -> RaftReplies.content(clients.admin(admin -> admin.setConfiguration(args))),
                () -> committedConfigurationIs(voters, listeners), "the configuration change to voters " + ids(voters)
                        + ", learners " + ids(listeners));
    }

    /** Whether this node's configuration is stable, committed, and holds exactly these voters and listeners. */
    private boolean committedConfigurationIs(List<RaftPeer> voters, List<RaftPeer> listeners) {
        RaftServer.Division d = division.get();
        RaftConfiguration conf = d.getRaftConf();
        return conf.getPreviousPeers().isEmpty() && conf.getLogEntryIndex() <= d.getRaftLog().getLastCommittedIndex()
                && ids(conf.getCurrentPeers(RaftPeerRole.FOLLOWER)).equals(ids(voters))
                && ids(conf.getCurrentPeers(RaftPeerRole.LISTENER)).equals(ids(listeners));
    }

    private static Set<RaftPeerId> ids(Collection<RaftPeer> peers) {
        return peers.stream().map(RaftPeer::getId).collect(Collectors.toSet());
    }
}
