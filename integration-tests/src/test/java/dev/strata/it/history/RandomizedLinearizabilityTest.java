package dev.strata.it.history;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.strata.it.history.LinearizabilityResult.Verdict.LINEARIZABLE;
import static dev.strata.it.history.LinearizabilityResult.Verdict.NOT_LINEARIZABLE;
import static org.assertj.core.api.Assertions.assertThat;

/** Histories generated from the model: linearizable as generated, caught once one read is changed. */
class RandomizedLinearizabilityTest {

    @Test
    void sequentialHistoriesAreLinearizableAndAChangedReadIsCaught() {
        long seed = Seeds.seed("sequentialHistoriesAreLinearizableAndAChangedReadIsCaught");
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            List<Operation> history = RandomHistories.sequential(random.nextLong(), 300, 4);
            LinearizabilityResult result = LinearizabilityChecker.check(history);
            assertThat(result.verdict()).as("round %d: %s", round, result.report()).isEqualTo(LINEARIZABLE);

            List<Operation> mutated = new ArrayList<>(history);
            int index = randomGet(history, random);
            Operation read = history.get(index);
            Operation changed = withReadValue(read, otherValue(history, read, random));
            mutated.set(index, changed);

            LinearizabilityResult caught = LinearizabilityChecker.check(mutated);
            assertThat(caught.verdict()).as("round %d: %s read %s", round, changed, read.readValue())
                    .isEqualTo(NOT_LINEARIZABLE);
            assertThat(caught.violations()).singleElement().satisfies(v -> {
                assertThat(v.key()).isEqualTo(read.key());
                assertThat(v.subHistory()).contains(changed);
            });
        }
    }

    @Test
    void concurrentHistoriesAreLinearizableAndAReadOfAnUnwrittenValueIsCaught() {
        long seed = Seeds.seed("concurrentHistoriesAreLinearizableAndAReadOfAnUnwrittenValueIsCaught");
        Random random = new Random(seed);
        for (int round = 0; round < 5; round++) {
            List<Operation> history = RandomHistories.concurrent(random.nextLong(),
                    new RandomHistories.Shape(1_000, 8, 3, 5_000_000, 0.1));
            LinearizabilityResult result = LinearizabilityChecker.check(history);
            assertThat(result.verdict()).as("round %d: %s", round, result.report()).isEqualTo(LINEARIZABLE);

            List<Operation> mutated = new ArrayList<>(history);
            int index = randomGet(history, random);
            mutated.set(index, withReadValue(history.get(index), "never-written"));
            assertThat(LinearizabilityChecker.check(mutated).verdict()).isEqualTo(NOT_LINEARIZABLE);
        }
    }

    @Test
    void aRunSizedHistoryOfFiveThousandOperationsIsJudgedLinearizable() {
        // The harness's end-of-run check: thousands of operations, 16 clients, 15 hot keys, faults.
        long seed = Seeds.seed("aRunSizedHistoryOfFiveThousandOperationsIsJudgedLinearizable");
        List<Operation> history = RandomHistories.concurrent(seed,
                new RandomHistories.Shape(5_000, 16, 15, 20_000_000, 0.05));

        long start = System.nanoTime();
        LinearizabilityResult result = LinearizabilityChecker.check(history);
        long millis = (System.nanoTime() - start) / 1_000_000;

        System.out.println("a run-sized history: " + history.size() + " operations in " + millis + " ms");
        assertThat(result.verdict()).as(result.report()).isEqualTo(LINEARIZABLE);
        assertThat(result.keysChecked()).hasSize(15);
    }

    private static int randomGet(List<Operation> history, Random random) {
        while (true) {
            int index = random.nextInt(history.size());
            Operation op = history.get(index);
            if (op.kind() == OpKind.GET && op.outcome() == Outcome.OK) {
                return index;
            }
        }
    }

    /** A value {@code read} did not return: absent, another value written to its key, or one never written. */
    private static String otherValue(List<Operation> history, Operation read, Random random) {
        List<String> others = new ArrayList<>();
        others.add("never-written");
        if (read.readValue() != null) {
            others.add(null);
        }
        history.stream()
                .filter(op -> op.kind().isWrite() && op.key().equals(read.key()) && op.value() != null
                        && !op.value().equals(read.readValue()))
                .forEach(op -> others.add(op.value()));
        return others.get(random.nextInt(others.size()));
    }

    private static Operation withReadValue(Operation op, String readValue) {
        return new Operation(op.id(), op.client(), op.kind(), op.key(), op.rangeEnd(), op.value(), op.expected(),
                op.consistency(), op.node(), op.invokedNanos(), op.completedNanos(), op.outcome(), readValue,
                op.rangeResult(), op.casSucceeded(), op.headerRevision(), op.modRevision(), op.error());
    }
}
