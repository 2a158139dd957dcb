package dev.strata.client;

import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.net.ConnectException;
import java.util.List;

import static dev.strata.client.Calls.Decision.FAIL;
import static dev.strata.client.Calls.Decision.OUTCOME_UNKNOWN;
import static dev.strata.client.Calls.Decision.RETRY;
import static dev.strata.client.Calls.Kind.READ;
import static dev.strata.client.Calls.Kind.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

/** Which failures the client retries, and where it sends the next attempt. */
class CallsTest {
    private static Calls.Decision decide(Calls.Kind kind, Status status) {
        return Calls.decide(kind, status, status.asRuntimeException());
    }

    @Test
    void readsAreRetriedAfterFailuresThatSayNothingAboutTheRequest() {
        for (Status s : List.of(Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED, Status.CANCELLED, Status.UNKNOWN, Status.INTERNAL)) {
            assertThat(decide(READ, s)).as("%s", s).isEqualTo(RETRY);
        }
    }

    @Test
    void writesThatMayHaveBeenAppliedAreReportedAsUnknownNotRetried() {
        for (Status s : List.of(Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED, Status.CANCELLED, Status.UNKNOWN, Status.INTERNAL)) {
            assertThat(decide(WRITE, s)).as("%s", s).isEqualTo(OUTCOME_UNKNOWN);
        }
    }

    @Test
    void aWriteThatNeverReachedANodeIsRetried() {
        Status refused = Status.UNAVAILABLE.withCause(new ConnectException("Connection refused"));
        assertThat(Calls.decide(WRITE, refused, refused.asRuntimeException())).isEqualTo(RETRY);
        Status wrapped = Status.UNAVAILABLE.withCause(new RuntimeException(new ConnectException("Connection refused")));
        assertThat(Calls.decide(WRITE, wrapped, wrapped.asRuntimeException())).isEqualTo(RETRY);
        Status handshake = Status.UNAVAILABLE.withCause(new SSLHandshakeException("PKIX path building failed"));
        assertThat(Calls.decide(WRITE, handshake, handshake.asRuntimeException())).as("a failed TLS handshake").isEqualTo(RETRY);
    }

    @Test
    void tlsFailuresAreSpelledOut() {
        SSLException handshake = new SSLHandshakeException("General OpenSslEngine problem");
        handshake.initCause(new java.security.cert.CertificateException("unable to find valid certification path to requested target"));
        Status untrusted = Status.UNAVAILABLE.withDescription("io exception").withCause(handshake);
        assertThat(Calls.transportHint(untrusted, untrusted.asRuntimeException(), false))
                .isEqualTo(" (TLS handshake failed: unable to find valid certification path to requested target)");

        Status closed = Status.UNAVAILABLE.withDescription("Network closed for unknown reason");
        assertThat(Calls.transportHint(closed, closed.asRuntimeException(), true)).contains("connect over TLS");
        assertThat(Calls.transportHint(closed, closed.asRuntimeException(), false)).as("already over TLS").isEmpty();
        Status reset = Status.UNAVAILABLE.withDescription("io exception")
                .withCause(new java.io.IOException("recvAddress(..) failed with error(-104): Connection reset by peer"));
        assertThat(Calls.transportHint(reset, reset.asRuntimeException(), true)).contains("connect over TLS");
        assertThat(Calls.transportHint(Status.UNAVAILABLE.withDescription("leader unknown"), null, true)).isEmpty();
    }

    @Test
    void requestsRefusedAsTheyAreAreNeverRetried() {
        for (Status s : List.of(Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION, Status.RESOURCE_EXHAUSTED,
                Status.NOT_FOUND, Status.DATA_LOSS)) {
            assertThat(decide(READ, s)).as("%s", s).isEqualTo(FAIL);
            assertThat(decide(WRITE, s)).as("%s", s).isEqualTo(FAIL);
        }
    }

    @Test
    void aFailedNodeIsAvoidedAndALeaderHintIsFollowed() {
        try (Endpoints e = new Endpoints(List.of("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"),
                InsecureChannelCredentials.create(), 60_000)) {
            Endpoints.Target first = e.pick();
            assertThat(first.address).isEqualTo("127.0.0.1:1");
            assertThat(e.pick()).as("stays on a node that works").isSameAs(first);
            e.failed(first);
            Endpoints.Target second = e.pick();
            assertThat(second.address).isEqualTo("127.0.0.1:2");
            e.failed(second);
            assertThat(e.pick().address).isEqualTo("127.0.0.1:3");
            e.failed(e.pick());
            assertThat(e.pick().address).as("all failed lately: the one that failed longest ago").isEqualTo("127.0.0.1:1");
            e.failed(e.pick());
            assertThat(e.pick().address).isEqualTo("127.0.0.1:2");
            e.leaderHint("127.0.0.1:9");
            assertThat(e.pick().address).as("a hinted leader, even one not configured").isEqualTo("127.0.0.1:9");
        }
    }
}
