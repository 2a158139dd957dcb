package dev.strata.server.grpc;

import dev.strata.engine.EngineStats;
import dev.strata.proto.v1.CheckpointRequest;
import dev.strata.proto.v1.CheckpointResponse;
import dev.strata.proto.v1.CheckpointStatus;
import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.EngineStatus;
import dev.strata.proto.v1.LevelStatus;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberAddResponse;
import dev.strata.proto.v1.MemberListRequest;
import dev.strata.proto.v1.MemberListResponse;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberPromoteResponse;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.proto.v1.MemberRemoveResponse;
import dev.strata.proto.v1.ResponseHeader;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.proto.v1.TransferLeaderRequest;
import dev.strata.proto.v1.TransferLeaderResponse;
import dev.strata.server.kv.InvalidRequestException;
import dev.strata.server.raft.Member;
import dev.strata.server.raft.NodeStatus;
import dev.strata.server.raft.RaftNode;
import dev.strata.transfer.CheckpointStats;
import io.grpc.stub.StreamObserver;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * {@code strata.v1.Cluster}: status and membership. Status and MemberList answer from this
 * node's view at once; the changes run on the admin executor because Ratis' admin calls block
 * until the new configuration is committed.
 */
final class ClusterService extends ClusterGrpc.ClusterImplBase {
    private final RaftNode node;
    private final Responder responder;
    private final Executor adminExecutor;
    private final Duration timeout;

    ClusterService(RaftNode node, Responder responder, Executor adminExecutor, Duration timeout) {
        this.node = node;
        this.responder = responder;
        this.adminExecutor = adminExecutor;
        this.timeout = timeout;
    }

    @Override
    public void status(StatusRequest request, StreamObserver<StatusResponse> observer) {
        responder.respond(observer, () -> {
            NodeStatus s = node.status();
            StatusResponse.Builder out = StatusResponse.newBuilder()
                    .setHeader(header())
                    .setRole(switch (s.role()) {
                        case LEADER -> StatusResponse.Role.LEADER;
                        case FOLLOWER -> StatusResponse.Role.FOLLOWER;
                        case CANDIDATE -> StatusResponse.Role.CANDIDATE;
                        case LISTENER -> StatusResponse.Role.LEARNER;
                        default -> StatusResponse.Role.UNKNOWN;
                    })
                    .setLeaderId(s.leaderId())
                    .setLeaderEndpoint(s.leaderId() == 0 ? "" : node.clientAddress(s.leaderId()))
                    .setCommitIndex(s.commitIndex())
                    .setAppliedIndex(s.appliedIndex())
                    .setDurableIndex(s.durableIndex())
                    .setLogStartIndex(s.logStartIndex());
            EngineStats stats = node.stateMachine().engineStats();
            if (stats != null) {
                out.setEngine(engine(stats));
            }
            CheckpointStats c = node.stateMachine().checkpointStats();
            out.setCheckpoints(CheckpointStatus.newBuilder()
                    .setLatestIndex(node.stateMachine().latestCheckpointIndex())
                    .setFullInstalls(c.fullInstalls.get())
                    .setDeltaInstalls(c.deltaInstalls.get())
                    .setFilesReceived(c.filesReceived.get())
                    .setFilesReused(c.filesReused.get())
                    .setReceivedRawBytes(c.receivedRawBytes.get())
                    .setReceivedWireBytes(c.receivedWireBytes.get())
                    .setSentRawBytes(c.sentRawBytes.get())
                    .setSentWireBytes(c.sentWireBytes.get()));
            return CompletableFuture.completedFuture(out.build());
        });
    }

    private static EngineStatus engine(EngineStats s) {
        EngineStatus.Builder e = EngineStatus.newBuilder()
                .setLiveBytes(s.liveBytes())
                .setTotalBytes(s.totalBytes())
                .setUserBytesWritten(s.userBytesWritten())
                .setWriteAmplification(s.writeAmplification())
                .setSpaceAmplification(s.spaceAmplification())
                .setMemtableBytes(s.memtableBytes())
                .setPendingCompactionBytes(s.pendingCompactionBytes())
                .setWritesStopped(s.writesStopped())
                .setBlockCacheHits(s.blockCacheHits())
                .setBlockCacheMisses(s.blockCacheMisses());
        for (EngineStats.LevelStats l : s.levels()) {
            e.addLevels(LevelStatus.newBuilder().setLevel(l.level()).setFiles(l.files()).setStoredBytes(l.storedBytes())
                    .setRawBytes(l.rawBytes()).setCompressionRatio(l.compressionRatio()));
        }
        return e.build();
    }

    @Override
    public void memberList(MemberListRequest request, StreamObserver<MemberListResponse> observer) {
        responder.respond(observer, () -> CompletableFuture.completedFuture(
                MemberListResponse.newBuilder().setHeader(header()).addAllMembers(members(node.members())).build()));
    }

    @Override
    public void memberAdd(MemberAddRequest request, StreamObserver<MemberAddResponse> observer) {
        responder.respond(observer, () -> {
            checkId(request.getId());
            checkAddress("raft_address", request.getRaftAddress());
            checkAddress("client_address", request.getClientAddress());
            return admin(() -> {
                List<Member> members = node.addLearner(request.getId(), request.getRaftAddress(), request.getClientAddress(), timeout);
                MemberAddResponse.Builder out = MemberAddResponse.newBuilder().setHeader(header()).addAllMembers(members(members));
                members.stream().filter(m -> m.id() == request.getId()).findFirst().ifPresent(m -> out.setMember(member(m)));
                return out.build();
            });
        });
    }

    @Override
    public void memberPromote(MemberPromoteRequest request, StreamObserver<MemberPromoteResponse> observer) {
        responder.respond(observer, () -> {
            checkId(request.getId());
            return admin(() -> MemberPromoteResponse.newBuilder().setHeader(header())
                    .addAllMembers(members(node.promote(request.getId()))).build());
        });
    }

    @Override
    public void memberRemove(MemberRemoveRequest request, StreamObserver<MemberRemoveResponse> observer) {
        responder.respond(observer, () -> {
            checkId(request.getId());
            return admin(() -> MemberRemoveResponse.newBuilder().setHeader(header())
                    .addAllMembers(members(node.remove(request.getId(), timeout))).build());
        });
    }

    @Override
    public void transferLeader(TransferLeaderRequest request, StreamObserver<TransferLeaderResponse> observer) {
        responder.respond(observer, () -> {
            checkId(request.getTargetId());
            return admin(() -> {
                node.transferLeadership(request.getTargetId(), timeout);
                return TransferLeaderResponse.newBuilder().setHeader(header()).setLeaderId(request.getTargetId()).build();
            });
        });
    }

    @Override
    public void checkpoint(CheckpointRequest request, StreamObserver<CheckpointResponse> observer) {
        responder.respond(observer, () -> admin(() -> {
            long index = node.checkpoint(timeout);
            return CheckpointResponse.newBuilder().setHeader(header()).setIndex(index).setTerm(node.term()).build();
        }));
    }

    private <T> CompletableFuture<T> admin(Callable<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, adminExecutor);
    }

    private static void checkId(long id) {
        if (id <= 0) {
            throw new InvalidRequestException("id must be a positive node id, was " + id);
        }
    }

    private static void checkAddress(String field, String address) {
        int colon = address.lastIndexOf(':');
        boolean ok = colon > 0 && colon < address.length() - 1;
        if (ok) {
            try {
                int port = Integer.parseInt(address.substring(colon + 1));
                ok = port > 0 && port < 65536;
            } catch (NumberFormatException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new InvalidRequestException(field + " must be host:port, was \"" + address + "\"");
        }
    }

    private ResponseHeader header() {
        return ResponseHeader.newBuilder().setMemberId(node.id()).setRaftTerm(node.term())
                .setRevision(node.stateMachine().revision()).build();
    }

    private static List<dev.strata.proto.v1.Member> members(List<Member> members) {
        return members.stream().map(ClusterService::member).toList();
    }

    private static dev.strata.proto.v1.Member member(Member m) {
        return dev.strata.proto.v1.Member.newBuilder().setId(m.id()).setRaftAddress(m.raftAddress())
                .setClientAddress(m.clientAddress()).setIsLearner(m.learner()).build();
    }
}
