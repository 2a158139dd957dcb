package dev.strata.server.raft;

import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.rpc.RpcFactory;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.leader.LogAppender;

/**
 * Ratis's gRPC transport, with Strata's {@link SnapshotAwareLogAppender} as the leader's log
 * appender; everything else (servers, clients, TLS from the {@link Parameters}) is Ratis's own.
 * Selected through {@link #TYPE} in the node's Raft properties, the only way Ratis takes a log
 * appender of the application's.
 */
public final class StrataGrpcFactory extends GrpcFactory {
    /** The RPC type to set in the Raft properties ({@code raft.rpc.type}). */
    public static final RpcType TYPE = new Type();

    public StrataGrpcFactory(Parameters parameters) {
        super(parameters);
    }

    @Override
    public LogAppender newLogAppender(RaftServer.Division server, LeaderState state, FollowerInfo follower) {
        return new SnapshotAwareLogAppender(server, state, follower);
    }

    /**
     * Ratis stores an RPC type in the properties by its name and, for a type of the
     * application's, creates it again from that name as a class: so the name is the class's and
     * the class has a public no-argument constructor.
     */
    public static final class Type implements RpcType {
        @Override
        public String name() {
            return Type.class.getName();
        }

        @Override
        public RpcFactory newFactory(Parameters parameters) {
            return new StrataGrpcFactory(parameters);
        }
    }
}
