package dev.strata.client;

import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.ResponseHeader;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes go to the leader: the SDK asks a node which node leads, sends writes there, and asks
 * again when a response shows a newer term. Three fake nodes that answer Put and Status.
 */
class LeaderRoutingTest {
    private final List<Server> servers = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    private final List<AtomicInteger> puts = new ArrayList<>();
    private volatile int leader;
    private volatile long term = 1;

    @BeforeEach
    void start() throws IOException {
        for (int i = 0; i < 3; i++) {
            int node = i;
            AtomicInteger count = new AtomicInteger();
            Server s = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                    .addService(new KVGrpc.KVImplBase() {
                        @Override
                        public void put(PutRequest request, StreamObserver<PutResponse> response) {
                            count.incrementAndGet();
                            response.onNext(PutResponse.newBuilder().setHeader(ResponseHeader.newBuilder()
                                    .setMemberId(node + 1).setRaftTerm(term).setRevision(1)).build());
                            response.onCompleted();
                        }
                    })
                    .addService(new ClusterGrpc.ClusterImplBase() {
                        @Override
                        public void status(StatusRequest request, StreamObserver<StatusResponse> response) {
                            response.onNext(StatusResponse.newBuilder().setLeaderId(leader + 1)
                                    .setLeaderEndpoint(addresses.get(leader))
                                    .setHeader(ResponseHeader.newBuilder().setMemberId(node + 1).setRaftTerm(term)).build());
                            response.onCompleted();
                        }
                    })
                    .build().start();
            servers.add(s);
            addresses.add("127.0.0.1:" + s.getPort());
            puts.add(count);
        }
    }

    @AfterEach
    void stop() {
        servers.forEach(Server::shutdownNow);
    }

    /** Puts until node {@code expected} has taken {@code n} more; fails after 200 puts (the status answer is asynchronous). */
    private void putUntilNodeTakes(StrataClient client, int expected, int n) {
        int before = puts.get(expected).get();
        for (int i = 0; i < 200 && puts.get(expected).get() < before + n; i++) {
            client.put("k", "v");
        }
        assertThat(puts.get(expected).get()).as("puts taken by node %d", expected + 1).isGreaterThanOrEqualTo(before + n);
    }

    @Test
    void writesGoToTheLeaderAndFollowItWhenTheTermChanges() {
        leader = 1;
        try (StrataClient client = StrataClient.builder().endpoints(addresses).build()) {
            putUntilNodeTakes(client, 1, 5);
            int first = puts.get(0).get();
            client.put("k", "v");
            assertThat(puts.get(0).get()).as("once the leader is known, nothing goes to node 1").isEqualTo(first);

            leader = 2;
            term = 2; // node 2 still answers, but in a newer term: the client asks again
            putUntilNodeTakes(client, 2, 5);
            int second = puts.get(1).get();
            client.put("k", "v");
            assertThat(puts.get(1).get()).isEqualTo(second);
        }
    }

    @Test
    void withLeaderRoutingOffWritesGoWhereReadsGo() {
        leader = 1;
        try (StrataClient client = StrataClient.builder().endpoints(addresses).writesToLeader(false).build()) {
            for (int i = 0; i < 20; i++) {
                client.put("k", "v");
            }
        }
        assertThat(puts.get(0)).hasValue(20);
        assertThat(puts.get(1)).hasValue(0);
    }
}
