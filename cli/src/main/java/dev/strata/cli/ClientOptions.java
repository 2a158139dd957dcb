package dev.strata.cli;

import dev.strata.client.StrataClient;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.List;

/**
 * The options every command that talks to a cluster takes: where the cluster is, how long a call
 * may take, how to print, and TLS ({@link TlsOptions}). Mixed into each such command, so they go
 * after its name: {@code strata get k --endpoints host:7100 -o json}.
 */
public final class ClientOptions {
    /** The local dev cluster's three client ports ({@code bin/strata-dev}). */
    public static final String DEV_ENDPOINTS = "127.0.0.1:7100,127.0.0.1:7110,127.0.0.1:7120";
    /** Unused with one attempt, but the builder asks for it. */
    private static final Duration RETRY_BACKOFF = Duration.ofMillis(50);

    @Option(names = "--endpoints", split = ",", paramLabel = "HOST:PORT",
            defaultValue = "${env:STRATA_ENDPOINTS:-" + DEV_ENDPOINTS + "}",
            description = "client addresses of cluster members, comma-separated (default: $STRATA_ENDPOINTS, else the "
                    + "local dev cluster, ${DEFAULT-VALUE})")
    List<String> endpoints;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "how long one call may take, retries included: 500ms, 5s, 1m (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Output output;

    @Mixin
    TlsOptions tls;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** How results are printed. */
    public enum Output { text, json }

    /**
     * A client for the chosen endpoints and timeout, on the JDK's sockets, which start faster
     * than native epoll; the caller closes it.
     */
    public StrataClient connect() {
        return builder(endpoints).build();
    }

    /** As {@link #connect()}, on native epoll where Netty has it: for long loads ({@code bench}). */
    StrataClient connectForLoad() {
        return builder(endpoints).nativeTransport(true).build();
    }

    /** A client for one endpoint alone that tries it once: for asking each node about itself. */
    StrataClient connectTo(String endpoint) {
        return builder(List.of(endpoint)).retries(1, RETRY_BACKOFF, RETRY_BACKOFF).build();
    }

    private StrataClient.Builder builder(List<String> addresses) {
        StrataClient.Builder b = StrataClient.builder().endpoints(addresses).timeout(timeout).nativeTransport(false);
        try {
            tls.applyTo(b);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return b;
    }

    public boolean json() {
        return output == Output.json;
    }
}
