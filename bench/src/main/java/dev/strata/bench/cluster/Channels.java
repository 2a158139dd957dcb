package dev.strata.bench.cluster;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The gRPC channels both targets use, built one way so neither system gets a better client:
 * grpc-java's default transport (Netty, shaded), plaintext, no message size limit, and calls
 * completed on the transport's own threads (a direct executor: no hand-off to a pool, which
 * would add the same few microseconds to every operation of both systems and cost the driver CPU).
 */
final class Channels {
    private Channels() {}

    /** A channel to {@code endpoint} (host:port). */
    static ManagedChannel open(String endpoint) {
        return Grpc.newChannelBuilder(endpoint, InsecureChannelCredentials.create())
                .maxInboundMessageSize(Integer.MAX_VALUE) // a get of a value over gRPC's default 4 MiB
                .directExecutor()
                .build();
    }

    static List<ManagedChannel> open(List<String> endpoints) {
        return endpoints.stream().map(Channels::open).toList();
    }

    /** Shuts every channel down now, failing what is still in flight, and waits a little for each. */
    static void close(List<ManagedChannel> channels) {
        channels.forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel ch : channels) {
            try {
                ch.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * An observer of a unary call that hands its one answer to {@code onAnswer} (which returns
     * the failure name, or null for success) and its error to {@code done} as a failure name.
     */
    static <T> StreamObserver<T> unary(KvTarget.Completion done, Function<T, String> onAnswer) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T answer) {
                done.completed(onAnswer.apply(answer));
            }

            @Override
            public void onError(Throwable t) {
                done.completed(Failures.of(t));
            }

            @Override
            public void onCompleted() {
                // A unary call's onNext already completed it.
            }
        };
    }
}
