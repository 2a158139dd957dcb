package dev.strata.server.tls;

import dev.strata.server.config.TlsConfig;
import dev.strata.server.config.TlsConfig.PortTls;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;

import java.time.Instant;

import static dev.strata.server.config.ConfigKeys.*;

/**
 * A node's TLS material, loaded from the files {@link TlsConfig} names, and what each connection
 * of the node gets from it:
 * <ul>
 *   <li>the client port's gRPC server: the certificate in {@code strata.tls.cert-file}, and
 *       with {@code client-cert-auth} a demand for a client certificate that chains to
 *       {@code trusted-ca-file};</li>
 *   <li>the node's own calls to other nodes' client ports (checkpoint fetches): trust in
 *       {@code trusted-ca-file} (the JVM's CAs without it), and the same certificate, presented
 *       when the other side asks for one, as etcd's gateway does;</li>
 *   <li>the Raft transport (Ratis over gRPC): server, its calls to peers, and the Raft client
 *       that forwards writes to the leader all present {@code peer-cert-file} and demand a peer
 *       certificate that chains to {@code peer-trusted-ca-file} (mutual TLS both ways).</li>
 * </ul>
 * Certificates, keys and CAs are re-read when their files change and take effect for new
 * connections. Thread-safe.
 */
public final class ServerTls {
    private final TlsConfig config;
    private final ReloadingKeyManager clientKeys;
    private final ReloadingTrustManager clientCas;
    private final ReloadingKeyManager peerKeys;
    private final ReloadingTrustManager peerCas;

    private ServerTls(TlsConfig config, ReloadingKeyManager clientKeys, ReloadingTrustManager clientCas,
                      ReloadingKeyManager peerKeys, ReloadingTrustManager peerCas) {
        this.config = config;
        this.clientKeys = clientKeys;
        this.clientCas = clientCas;
        this.peerKeys = peerKeys;
        this.peerCas = peerCas;
    }

    /**
     * Reads and checks every file {@code config} names: each exists, is readable and parses as
     * PEM, and each key belongs to its certificate.
     *
     * @throws IllegalArgumentException naming the configuration key and file at fault, and what is wrong
     */
    public static ServerTls load(TlsConfig config) {
        PortTls c = config.client();
        PortTls p = config.peer();
        ReloadingKeyManager clientKeys = c == null ? null
                : new ReloadingKeyManager("the client port", c.certFile(), CERT_FILE.name(), c.keyFile(), KEY_FILE.name());
        ReloadingTrustManager clientCas = c == null || c.trustedCaFile() == null ? null
                : new ReloadingTrustManager("the client port", c.trustedCaFile(), TRUSTED_CA_FILE.name());
        ReloadingKeyManager peerKeys = p == null ? null
                : new ReloadingKeyManager("the Raft port", p.certFile(), PEER_CERT_FILE.name(), p.keyFile(), PEER_KEY_FILE.name());
        ReloadingTrustManager peerCas = p == null ? null
                : new ReloadingTrustManager("the Raft port", p.trustedCaFile(), PEER_TRUSTED_CA_FILE.name());
        return new ServerTls(config, clientKeys, clientCas, peerKeys, peerCas);
    }

    /** Plaintext on both ports. */
    public static ServerTls plaintext() {
        return new ServerTls(TlsConfig.PLAINTEXT, null, null, null, null);
    }

    /** The credentials of the client port's gRPC server. */
    public ServerCredentials clientPortServerCredentials() {
        if (clientKeys == null) {
            return InsecureServerCredentials.create();
        }
        TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder().keyManager(clientKeys);
        if (config.client().requireClientCerts()) {
            b.trustManager(clientCas).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
        }
        return b.build();
    }

    /** The credentials of this node's calls to other nodes' client ports. */
    public ChannelCredentials clientPortChannelCredentials() {
        if (clientKeys == null) {
            return InsecureChannelCredentials.create();
        }
        TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder().keyManager(clientKeys);
        if (clientCas != null) {
            b.trustManager(clientCas);
        }
        return b.build();
    }

    /**
     * Turns on mutual TLS for every part of the Ratis gRPC transport (server, calls to peers,
     * Raft and admin clients) in {@code parameters}, when the Raft port serves TLS; the same
     * parameters must reach the Raft server and every Raft client the node builds.
     */
    public void configureRaft(Parameters parameters) {
        if (peerKeys != null) {
            GrpcConfigKeys.TLS.setConf(parameters, new GrpcTlsConfig(peerKeys, peerCas, true));
        }
    }

    /** Which ports serve TLS with which certificates, for the start-up log; warns of one that expired. */
    public String describe() {
        return "client port " + describe(clientKeys, config.client() != null && config.client().requireClientCerts())
                + "; Raft port " + describe(peerKeys, true);
    }

    private static String describe(ReloadingKeyManager keys, boolean mutual) {
        if (keys == null) {
            return "plaintext";
        }
        CertifiedKey k = keys.current();
        String expired = k.leaf().getNotAfter().toInstant().isBefore(Instant.now()) ? " (EXPIRED)" : "";
        return (mutual ? "mutual TLS" : "TLS") + " with " + k.describe() + expired;
    }
}
