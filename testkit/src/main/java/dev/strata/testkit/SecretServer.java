package dev.strata.testkit;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.KeyValue;
import io.grpc.Grpc;
import io.grpc.Server;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.StreamObserver;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A TLS server on a loopback port that answers every Get with the value "secret": enough to
 * check whom a client trusts and what it presents, without a cluster.
 */
public final class SecretServer implements AutoCloseable {
    private final Server server;

    /**
     * Starts a server presenting {@code certificate}; when {@code clientCa} is not null it
     * requires client certificates issued by that CA.
     */
    public SecretServer(TestCertificates.Issued certificate, Path clientCa) throws IOException {
        TlsServerCredentials.Builder tls = TlsServerCredentials.newBuilder()
                .keyManager(certificate.certificate().toFile(), certificate.privateKey().toFile());
        if (clientCa != null) {
            tls.trustManager(clientCa.toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
        }
        server = Grpc.newServerBuilderForPort(0, tls.build())
                .addService(new KVGrpc.KVImplBase() {
                    @Override
                    public void get(GetRequest request, StreamObserver<GetResponse> response) {
                        response.onNext(GetResponse.newBuilder().setKv(KeyValue.newBuilder()
                                .setKey(request.getKey()).setValue(ByteString.copyFromUtf8("secret")).setVersion(1)).build());
                        response.onCompleted();
                    }
                })
                .build()
                .start();
    }

    /** The address to connect to, {@code 127.0.0.1:PORT}. */
    public String endpoint() {
        return "127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
