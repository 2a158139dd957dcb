package dev.strata.server.raft;

import dev.strata.proto.internal.v1.MemberDirectory;
import dev.strata.proto.internal.v1.MemberRecord;
import dev.strata.testkit.Ports;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What counts as an empty disk, what the directory says of a member, and that a joining node on
 * an empty disk waits for a peer to answer. CheckpointIT shows the refusal and member-replace in
 * a cluster.
 */
class ReplacedDiskGuardTest {
    @TempDir
    Path dir;

    @Test
    void directoriesThatDoNotExistOrHoldNothingAreAnEmptyDisk() throws IOException {
        assertThat(ReplacedDiskGuard.nothingOnDisk(dir.resolve("raft"), dir.resolve("engine"))).isTrue();
        Files.createDirectories(dir.resolve("raft"));
        Files.createDirectories(dir.resolve("engine"));
        assertThat(ReplacedDiskGuard.nothingOnDisk(dir.resolve("raft"), dir.resolve("engine"))).isTrue();
    }

    @Test
    void aRaftLogOrAnEngineSeededFromABackupIsNotAnEmptyDisk() throws IOException {
        Files.createDirectories(dir.resolve("raft/group"));
        assertThat(ReplacedDiskGuard.nothingOnDisk(dir.resolve("raft"), dir.resolve("engine"))).as("a Raft log").isFalse();

        Path other = dir.resolve("restored");
        Files.createDirectories(other.resolve("engine"));
        Files.writeString(other.resolve("engine/MANIFEST-000001"), "x");
        assertThat(ReplacedDiskGuard.nothingOnDisk(other.resolve("raft"), other.resolve("engine"))).as("an engine").isFalse();
    }

    @Test
    void theDirectoryRecordsOnlyMembersThatRanOrWereAdded() {
        MemberDirectory d = MemberDirectory.newBuilder()
                .addMembers(MemberRecord.newBuilder().setId(1).setClientAddress("a:1"))
                .addMembers(MemberRecord.newBuilder().setId(3).setClientAddress("c:1"))
                .build();
        assertThat(ReplacedDiskGuard.recordsNode(d, 3)).isTrue();
        assertThat(ReplacedDiskGuard.recordsNode(d, 2)).isFalse();
        assertThat(ReplacedDiskGuard.recordsNode(MemberDirectory.getDefaultInstance(), 1)).as("a new cluster").isFalse();
    }

    @Test
    void aHeldBackNodeSaysWhoKnowsItAndWhatEndsTheWait() {
        RaftPeer peer = RaftPeer.newBuilder().setId(RaftPeerId.valueOf("1")).setAddress("10.0.0.1:7101").build();
        assertThat(ReplacedDiskGuard.heldBack(3, false, peer))
                .contains("node 3", "empty data directory", "peer 1 at 10.0.0.1:7101", "neither voting nor serving",
                        "strata member-replace 3");
        assertThat(ReplacedDiskGuard.heldBack(3, true, peer))
                .contains("node 3", "still lists it as a voter", "strata member-replace 3");
    }

    /**
     * A node told to join, on an empty disk, whose peers all stay silent may be a voter whose
     * command line names members that are gone: it keeps asking instead of starting, since
     * started it would vote as that voter once the leader reached it.
     */
    @Test
    void aJoiningNodeOnAnEmptyDiskWaitsWhileNoPeerAnswers() throws Exception {
        RaftPeer gone = RaftPeer.newBuilder().setId(RaftPeerId.valueOf("1")).setAddress("127.0.0.1:" + Ports.free()).build();
        RaftGroup group = RaftGroup.valueOf(RaftGroupId.randomId(), gone);
        AtomicInteger asked = new AtomicInteger();
        CompletableFuture<Void> askedAgain = new CompletableFuture<>();
        CompletableFuture<Boolean> started = new CompletableFuture<>();
        Thread node = Thread.ofPlatform().name("guard").start(() -> {
            try {
                started.complete(ReplacedDiskGuard.joinsAfterRemoval(5, true, List.of(gone), peer -> {
                    if (asked.incrementAndGet() == 2) {
                        askedAgain.complete(null); // a second round: the first ended without a start
                    }
                    return RaftClient.newBuilder().setRaftGroup(group).setProperties(new RaftProperties())
                            .setRetryPolicy(RetryPolicies.noRetry()).build();
                }));
            } catch (Throwable t) {
                started.completeExceptionally(t);
            }
        });
        CompletableFuture.anyOf(askedAgain, started).join();
        assertThat(started).as("a start decided with no peer answering").isNotDone();
        node.interrupt();
        node.join();
        assertThatThrownBy(started::join).hasCauseInstanceOf(InterruptedIOException.class);
    }

    @Test
    void aNodeNoPeerAnswersSaysWhomItAskedAndWhatToDo() {
        RaftPeer peer = RaftPeer.newBuilder().setId(RaftPeerId.valueOf("1")).setAddress("10.0.0.1:7101").build();
        assertThat(ReplacedDiskGuard.noPeerAnswers(5, List.of(peer)))
                .contains("node 5", "empty data directory", "1 at 10.0.0.1:7101", "neither voting nor serving",
                        "current members in --peers");
    }
}
