package dev.strata.server.raft;

import dev.strata.proto.v1.MemberDirectory;
import dev.strata.proto.v1.MemberRecord;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What counts as an empty disk, and what the directory says of a member. CheckpointIT shows the
 * refusal and member-replace in a cluster.
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
}
