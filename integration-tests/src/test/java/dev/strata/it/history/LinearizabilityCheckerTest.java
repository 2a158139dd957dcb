package dev.strata.it.history;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.strata.it.history.LinearizabilityResult.Verdict.LINEARIZABLE;
import static dev.strata.it.history.LinearizabilityResult.Verdict.NOT_LINEARIZABLE;
import static dev.strata.it.history.LinearizabilityResult.Verdict.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

class LinearizabilityCheckerTest {
    private final HistoryBuilder h = new HistoryBuilder();

    @Test
    void emptyHistoryIsLinearizable() {
        LinearizabilityResult result = LinearizabilityChecker.check(List.of());

        assertThat(result.verdict()).isEqualTo(LINEARIZABLE);
        assertThat(result.keysChecked()).isEmpty();
    }

    @Test
    void sequentialHistoryIsLinearizable() {
        h.get(1, "k", 0, 1, null);
        h.put(1, "k", "a", 2, 3);
        h.get(2, "k", 4, 5, "a");
        h.cas(3, "k", "a", "b", 6, 7, true);
        h.cas(1, "k", "a", "c", 8, 9, false);
        h.get(2, "k", 10, 11, "b");
        h.delete(3, "k", 12, 13);
        h.get(1, "k", 14, 15, null);
        h.cas(2, "k", null, "d", 16, 17, true);
        h.get(3, "k", 18, 19, "d");

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).as(result.report()).isEqualTo(LINEARIZABLE);
        assertThat(result.keysChecked()).containsExactly("k");
        assertThat(result.report()).startsWith("linearizability: LINEARIZABLE (1 keys checked");
    }

    @Test
    void concurrentWritesLinearizeInTheOrderLaterReadsShow() {
        h.put(1, "k", "a", 0, 10);
        h.put(2, "k", "b", 0, 10);
        h.get(3, "k", 20, 30, "a");
        h.get(1, "k", 40, 50, "a");

        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void readsThatDisagreeOnTheOrderOfFinishedWritesAreNotLinearizable() {
        h.put(1, "k", "a", 0, 10);
        h.put(2, "k", "b", 0, 10);
        h.get(3, "k", 20, 30, "a");
        h.get(1, "k", 40, 50, "b");

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).isEqualTo(NOT_LINEARIZABLE);
        assertThat(result.violations()).singleElement().satisfies(v -> assertThat(v.subHistory()).hasSize(4));
    }

    @Test
    void readsDuringAWriteMaySeeItOnlyOnceItAppeared() {
        h.put(1, "k", "a", 0, 100);
        h.get(2, "k", 10, 20, null);
        h.get(2, "k", 30, 40, "a");
        h.get(3, "k", 50, 60, "a");
        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);

        h.get(2, "k", 70, 80, null);
        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(NOT_LINEARIZABLE);
    }

    @Test
    void staleLinearizableReadIsNotLinearizable() {
        Operation putA = h.put(1, "k", "a", 0, 10);
        Operation putB = h.put(2, "k", "b", 20, 30);
        Operation stale = h.get(3, "k", 40, 50, "a");

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).isEqualTo(NOT_LINEARIZABLE);
        KeyViolation violation = result.violations().getFirst();
        assertThat(violation.key()).isEqualTo("k");
        assertThat(violation.minimal()).isTrue();
        assertThat(violation.subHistory()).containsExactly(putA, putB, stale);
        assertThat(violation.report()).isEqualTo("""
                key "k" is not linearizable; a minimal sub-history, 3 of its 3 operations, in ms from the first:
                    [     0.000,     10.000] ms  #1 client 1 PUT "k" = "a" -> OK rev 1
                    [    20.000,     30.000] ms  #2 client 2 PUT "k" = "b" -> OK rev 2
                    [    40.000,     50.000] ms  #3 client 3 GET "k" -> OK "a" rev 2
                """);
        assertThat(result.report()).contains("NOT_LINEARIZABLE (1 keys checked, 1 not linearizable, 0 undecided)")
                .contains(violation.report());
    }

    @Test
    void lostAcknowledgedWriteIsNotLinearizable() {
        h.put(1, "k", "a", 0, 10);
        Operation acknowledged = h.put(1, "k", "b", 20, 30);
        h.get(2, "k", 25, 35, "b");
        Operation lost = h.get(2, "k", 40, 50, "a");

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).isEqualTo(NOT_LINEARIZABLE);
        assertThat(result.violations().getFirst().subHistory()).contains(acknowledged, lost);
    }

    @Test
    void acknowledgedPutReadAsAbsentIsNotLinearizable() {
        Operation put = h.put(1, "k", "a", 0, 10);
        Operation read = h.get(2, "k", 20, 30, null);

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.violations()).singleElement()
                .satisfies(v -> assertThat(v.subHistory()).containsExactly(put, read));
    }

    @Test
    void twoCasOnOneExpectedValueCannotBothSucceed() {
        Operation put = h.put(1, "k", "a", 0, 10);
        Operation first = h.cas(2, "k", "a", "b", 20, 40, true);
        Operation second = h.cas(3, "k", "a", "c", 25, 45, true);

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).isEqualTo(NOT_LINEARIZABLE);
        assertThat(result.violations().getFirst().subHistory()).containsExactly(put, first, second);
    }

    @Test
    void twoCasOnOneExpectedValueOneFailingIsLinearizable() {
        h.put(1, "k", "a", 0, 10);
        h.cas(2, "k", "a", "b", 20, 40, true);
        h.cas(3, "k", "a", "c", 25, 45, false);
        h.get(1, "k", 50, 60, "b");

        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void casOnAbsentKeyExpectsNull() {
        h.cas(1, "k", null, "a", 0, 10, true);
        h.cas(2, "k", null, "b", 20, 30, false);
        h.get(1, "k", 40, 50, "a");
        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);

        h.cas(3, "k", null, "c", 60, 70, true);
        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(NOT_LINEARIZABLE);
    }

    @Test
    void unknownPutThatLaterShowsUpIsLinearizable() {
        h.put(1, "k", "a", 0, 10);
        h.putUnknown(2, "k", "b", 20, 30);
        h.get(3, "k", 40, 50, "a");
        h.get(3, "k", 1_000, 1_010, "b");
        h.get(1, "k", 1_020, 1_030, "b");

        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void unknownPutThatNeverShowsUpIsLinearizable() {
        h.put(1, "k", "a", 0, 10);
        h.putUnknown(2, "k", "b", 20, 30);
        h.get(3, "k", 40, 50, "a");
        h.get(3, "k", 1_000, 1_010, "a");

        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void unknownPutThatShowsUpThenVanishesIsNotLinearizable() {
        h.put(1, "k", "a", 0, 10);
        h.putUnknown(2, "k", "b", 20, 30);
        h.get(3, "k", 40, 50, "b");
        h.get(3, "k", 60, 70, "a");

        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(NOT_LINEARIZABLE);
    }

    @Test
    void unknownCasMayHaveSwappedOrNot() {
        h.put(1, "k", "a", 0, 10);
        h.casUnknown(2, "k", "a", "b", 20, 30);
        h.get(3, "k", 40, 50, "a");
        h.get(3, "k", 60, 70, "b");
        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);

        // It cannot swap once the value it expects is gone.
        HistoryBuilder late = new HistoryBuilder();
        late.put(1, "k", "a", 0, 10);
        late.casUnknown(2, "k", "a", "b", 20, 30);
        late.put(1, "k", "c", 40, 50);
        late.get(3, "k", 60, 70, "b");
        assertThat(LinearizabilityChecker.check(late.ops()).verdict()).isEqualTo(NOT_LINEARIZABLE);
    }

    @Test
    void manyUnknownWritesThatNeverShowAreCheap() {
        h.put(1, "k", "start", 0, 1);
        for (int i = 0; i < 200; i++) {
            h.putUnknown(2 + i % 5, "k", "lost" + i, 10 + i, 20 + i);
            h.get(1, "k", 10 + i, 11 + i, "start");
        }

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops(), new SearchBudget(10_000, 10_000));

        assertThat(result.verdict()).as(result.report()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void failedPutWhoseValueIsReadIsNotLinearizable() {
        h.put(1, "k", "a", 0, 10);
        Operation failed = h.putFailed(2, "k", "b", 20, 30);
        Operation read = h.get(3, "k", 40, 50, "b");

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).isEqualTo(NOT_LINEARIZABLE);
        KeyViolation violation = result.violations().getFirst();
        assertThat(violation.subHistory()).containsExactly(read);
        assertThat(violation.report())
                .contains("writes of values read above that FAILed, so count as never applied:")
                .contains("#" + failed.id() + " client 2 PUT \"k\" = \"b\" -> FAIL (UNAVAILABLE: no leader)");
    }

    @Test
    void readOfAValueNobodyWroteIsNotLinearizable() {
        h.put(1, "k", "a", 0, 10);
        Operation corrupt = h.get(2, "k", 20, 30, "L:c3-17:70000");

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.violations()).singleElement()
                .satisfies(v -> assertThat(v.subHistory()).containsExactly(corrupt));
    }

    @Test
    void serializableReadsTakeNoPart() {
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        h.serializableGet(2, 3, "k", 40, 50, "a", 1, 1);

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.verdict()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void rangeIsCheckedKeyByKeyAndCatchesAStaleKey() {
        h.put(1, "a1", "x", 0, 10);
        Operation first = h.put(1, "a2", "y", 0, 10);
        Operation second = h.put(2, "a2", "z", 20, 30);
        h.put(2, "b1", "outside", 20, 30);
        Operation range = h.range(3, "a", "b", 40, 50, Map.of("a1", "x", "a2", "y"));

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.keysChecked()).containsExactly("a1", "a2", "b1");
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.key()).isEqualTo("a2");
            assertThat(v.subHistory()).containsExactly(first, second, range);
            assertThat(v.report()).contains("RANGE \"a\" .. \"b\" -> OK \"a2\" \"y\" (of 2 keys)");
        });
    }

    @Test
    void rangeMissingAPresentKeyIsNotLinearizable() {
        h.put(1, "a1", "x", 0, 10);
        h.put(1, "a2", "y", 0, 10);
        h.range(3, "a", "b", 40, 50, Map.of("a1", "x"));

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops());

        assertThat(result.violations()).extracting(KeyViolation::key).containsExactly("a2");
    }

    @Test
    void minimalSubHistoryOfABuriedViolationHoldsOnlyTheCulprits() {
        // Four clients busy on three keys for a second, then, on "hot", a stale read among them.
        long seed = 7;
        List<Operation> background = RandomHistories.concurrent(seed,
                new RandomHistories.Shape(600, 4, 3, 5_000_000, 0.05));
        List<Operation> history = new ArrayList<>(background);
        long quiet = background.stream().mapToLong(Operation::completedNanos).max().orElseThrow() + 1;
        HistoryBuilder culprits = new HistoryBuilder();
        Operation putA = shifted(culprits.put(11, "key01", "culprit-a", 0, 1), quiet, 10_000);
        Operation putB = shifted(culprits.put(12, "key01", "culprit-b", 2, 3), quiet, 10_001);
        Operation stale = shifted(culprits.get(13, "key01", 4, 5, "culprit-a"), quiet, 10_002);
        history.addAll(List.of(putA, putB, stale));
        // Then more traffic that reads "culprit-b" and moves on.
        HistoryBuilder after = new HistoryBuilder();
        history.add(shifted(after.get(14, "key01", 6, 7, "culprit-b"), quiet, 10_003));
        history.add(shifted(after.put(14, "key01", "later", 8, 9), quiet, 10_004));
        history.add(shifted(after.get(15, "key01", 10, 11, "later"), quiet, 10_005));

        LinearizabilityResult result = LinearizabilityChecker.check(history);

        assertThat(result.verdict()).as(result.report()).isEqualTo(NOT_LINEARIZABLE);
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.key()).isEqualTo("key01");
            assertThat(v.minimal()).isTrue();
            assertThat(v.subHistory()).containsExactly(putA, putB, stale);
            assertThat(v.operationsOnKey()).isGreaterThan(150);
        });
    }

    @Test
    void exhaustedBudgetIsUnknownAndNamesTheKey() {
        for (int i = 0; i < 30; i++) {
            h.put(i, "slow", "v" + i, 0, 100);
        }
        h.get(99, "slow", 200, 210, "v7");
        h.put(1, "fast", "a", 0, 10);

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops(), new SearchBudget(20, 20));

        assertThat(result.verdict()).isEqualTo(UNKNOWN);
        assertThat(result.linearizable()).isFalse();
        assertThat(result.violations()).isEmpty();
        assertThat(result.undecidedKeys()).extracting(LinearizabilityResult.UndecidedKey::key).containsExactly("slow");
        assertThat(result.report()).contains("key \"slow\" is undecided: the search gave up after 20 steps over 31 operations");
    }

    @Test
    void violationOnOneKeyOutranksAnUndecidedOne() {
        for (int i = 0; i < 30; i++) {
            h.put(i, "slow", "v" + i, 0, 100);
        }
        h.get(99, "slow", 200, 210, "v7");
        h.put(1, "bad", "a", 0, 10);
        h.get(1, "bad", 20, 30, null);

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops(), new SearchBudget(20, 1_000));

        assertThat(result.verdict()).isEqualTo(NOT_LINEARIZABLE);
        assertThat(result.violations()).extracting(KeyViolation::key).containsExactly("bad");
        assertThat(result.undecidedKeys()).extracting(LinearizabilityResult.UndecidedKey::key).containsExactly("slow");
    }

    @Test
    void shrinkingOutOfBudgetSaysTheSubHistoryMayNotBeMinimal() {
        h.put(1, "k", "a", 0, 10);
        for (int i = 0; i < 20; i++) {
            h.get(2, "k", 20 + 2 * i, 21 + 2 * i, "a");
        }
        h.get(3, "k", 100, 110, null);

        LinearizabilityResult result = LinearizabilityChecker.check(h.ops(), new SearchBudget(1_000, 1));

        KeyViolation violation = result.violations().getFirst();
        assertThat(violation.minimal()).isFalse();
        assertThat(violation.report()).contains("a sub-history (shrinking ran out of budget)");
    }

    @Test
    void eventsAtTheSameInstantAreConcurrent() {
        h.put(1, "k", "a", 0, 10);
        h.get(2, "k", 10, 20, null);

        assertThat(LinearizabilityChecker.check(h.ops()).verdict()).isEqualTo(LINEARIZABLE);
    }

    /** {@code op} with a new id, moved to start {@code offsetNanos} later. */
    private static Operation shifted(Operation op, long offsetNanos, long id) {
        return new Operation(id, op.client(), op.kind(), op.key(), op.rangeEnd(), op.value(), op.expected(),
                op.consistency(), op.node(), op.invokedNanos() + offsetNanos, op.completedNanos() + offsetNanos,
                op.outcome(), op.readValue(), op.rangeResult(), op.casSucceeded(), op.headerRevision(),
                op.modRevision(), op.error());
    }
}
