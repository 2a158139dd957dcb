package dev.strata.it.history;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.strata.it.history.SerializableAnomaly.Kind.FUTURE_READ;
import static dev.strata.it.history.SerializableAnomaly.Kind.MOD_REVISION_MISMATCH;
import static dev.strata.it.history.SerializableAnomaly.Kind.MOD_REVISION_REGRESSED;
import static dev.strata.it.history.SerializableAnomaly.Kind.REVISION_REGRESSED;
import static dev.strata.it.history.SerializableAnomaly.Kind.UNWRITTEN_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

class SerializableReadCheckerTest {
    private final HistoryBuilder h = new HistoryBuilder();

    @Test
    void staleButMonotonicReadsAreClean() {
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        h.put(1, "k", "c", 40, 50);
        // Node 2 lags behind the leader but never goes back.
        h.serializableGet(2, 2, "k", 60, 70, null, 0, 0);
        h.serializableGet(2, 2, "k", 80, 90, "a", 1, 1);
        h.serializableGet(3, 2, "k", 100, 110, "a", 1, 1);
        h.serializableGet(2, 2, "k", 120, 130, "b", 2, 2);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.clean()).as(result.report()).isTrue();
        assertThat(result.readsChecked()).isEqualTo(4);
        assertThat(result.report()).isEqualTo("serializable reads: OK (4 reads checked, 0 anomalies)\n");
    }

    @Test
    void readConcurrentWithItsWriteIsNotFromTheFuture() {
        h.put(1, "k", "a", 10, 30);
        h.serializableGet(2, 1, "k", 0, 20, "a", 1, 1);

        assertThat(SerializableReadChecker.check(h.ops()).clean()).isTrue();
    }

    @Test
    void readFromTheFutureIsFlagged() {
        Operation read = h.serializableGet(2, 1, "k", 0, 10, "a", 1, 1);
        Operation put = h.put(1, "k", "a", 20, 30);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(FUTURE_READ);
            assertThat(a.key()).isEqualTo("k");
            assertThat(a.node()).isEqualTo(1);
            assertThat(a.operations()).containsExactly(put, read);
        });
        assertThat(result.report()).isEqualTo("""
                serializable reads: ANOMALIES (1 reads checked, 1 anomalies)
                FUTURE_READ (node 1, key "k"): read "a" before any write of it was invoked
                    [     0.000,     10.000] ms  #1 client 2 GET "k" (serializable, node 1) -> OK "a" mod_rev 1 rev 1
                    [    20.000,     30.000] ms  #2 client 1 PUT "k" = "a" -> OK rev 1
                """);
    }

    @Test
    void valueNobodyWroteIsFlagged() {
        h.put(1, "k", "a", 0, 10);
        h.serializableGet(2, 1, "k", 20, 30, "L:c3-17:70000", 1, 1);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).extracting(SerializableAnomaly::kind).containsExactly(UNWRITTEN_VALUE);
        assertThat(result.anomalies().getFirst().description()).isEqualTo("read \"L:c3-17:70000\", but no operation wrote it");
    }

    @Test
    void valueOfAFailedWriteIsFlagged() {
        Operation failed = h.putFailed(1, "k", "a", 0, 10);
        Operation notSwapped = h.cas(1, "k", "x", "b", 0, 10, false);
        Operation read = h.serializableGet(2, 1, "k", 20, 30, "a", 1, 1);
        h.serializableGet(2, 1, "k", 40, 50, "b", 1, 1);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).extracting(SerializableAnomaly::kind).containsExactly(UNWRITTEN_VALUE, UNWRITTEN_VALUE);
        assertThat(result.anomalies().getFirst().operations()).containsExactly(failed, read);
        assertThat(result.anomalies().get(1).operations()).contains(notSwapped);
    }

    @Test
    void valueOfAnUnknownWriteIsNotFlagged() {
        h.putUnknown(1, "k", "a", 0, 10);
        h.casUnknown(1, "k", "a", "b", 20, 30);
        h.serializableGet(2, 1, "k", 40, 50, "a", 0, 0);
        h.serializableGet(2, 1, "k", 60, 70, "b", 0, 0);

        assertThat(SerializableReadChecker.check(h.ops()).clean()).isTrue();
    }

    @Test
    void headerRevisionGoingBackOnOneNodeIsFlagged() {
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        Operation newer = h.serializableGet(2, 3, "k", 40, 50, "b", 2, 2);
        Operation older = h.serializableGet(2, 3, "other", 60, 70, null, 1, 0);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(REVISION_REGRESSED);
            assertThat(a.key()).isNull();
            assertThat(a.node()).isEqualTo(3);
            assertThat(a.operations()).containsExactly(newer, older);
            assertThat(a.description()).isEqualTo("answered with header revision 1 after answering with 2 to #3, "
                    + "which completed before this read was invoked");
        });
    }

    @Test
    void modRevisionGoingBackOnOneNodeIsFlagged() {
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        h.serializableGet(2, 1, "k", 40, 50, "b", 5, 2);
        h.serializableGet(2, 1, "k", 60, 70, "a", 5, 1);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).extracting(SerializableAnomaly::kind).containsExactly(MOD_REVISION_REGRESSED);
    }

    @Test
    void differentNodesNeedNotAgree() {
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        h.serializableGet(2, 1, "k", 40, 50, "b", 2, 2);
        h.serializableGet(2, 2, "k", 60, 70, "a", 1, 1);
        h.serializableGet(2, 3, "k", 80, 90, null, 0, 0);

        assertThat(SerializableReadChecker.check(h.ops()).clean()).isTrue();
    }

    @Test
    void overlappingReadsOnOneNodeMayBeAnsweredInEitherOrder() {
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        h.serializableGet(2, 1, "k", 40, 60, "b", 2, 2);
        h.serializableGet(3, 1, "k", 50, 70, "a", 1, 1);

        assertThat(SerializableReadChecker.check(h.ops()).clean()).isTrue();
    }

    @Test
    void modRevisionThatIsNotTheWritesIsFlagged() {
        Operation put = h.put(1, "k", "a", 0, 10);
        Operation read = h.serializableGet(2, 1, "k", 20, 30, "a", 7, 6);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(MOD_REVISION_MISMATCH);
            assertThat(a.operations()).containsExactly(put, read);
            assertThat(a.description()).isEqualTo("read \"a\" with mod revision 6, but its write was acknowledged with revision 1");
        });
    }

    @Test
    void rangeValuesAreCheckedLikeGets() {
        h.put(1, "a1", "x", 0, 10);
        h.serializableRange(2, 1, "a", "b", 20, 30, Map.of("a1", "x", "a2", "ghost"), 1);

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(UNWRITTEN_VALUE);
            assertThat(a.key()).isEqualTo("a2");
        });
    }

    @Test
    void linearizableReadsAreNotItsConcern() {
        h.get(1, "k", 0, 10, "ghost");

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.clean()).isTrue();
        assertThat(result.readsChecked()).isZero();
    }

    @Test
    void reportListsAtMostFiftyAnomalies() {
        for (int i = 0; i < 60; i++) {
            h.serializableGet(1, 1, "k", i, i, "ghost" + i, 0, 0);
        }

        SerializableReadResult result = SerializableReadChecker.check(h.ops());

        assertThat(result.anomalies()).hasSize(60);
        assertThat(result.report()).endsWith("... and 10 more\n");
    }
}
