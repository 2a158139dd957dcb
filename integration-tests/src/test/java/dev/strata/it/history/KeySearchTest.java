package dev.strata.it.history;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.strata.it.history.LinearizabilityResult.Verdict.LINEARIZABLE;
import static dev.strata.it.history.LinearizabilityResult.Verdict.NOT_LINEARIZABLE;
import static dev.strata.it.history.LinearizabilityResult.Verdict.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search and its shortcuts (unknown writes narrowed, normal forms, dominance) against a brute
 * force that tries every order of every subset of unknown writes, on small random histories that
 * reuse values and overlap heavily.
 */
class KeySearchTest {
    private static final String[] VALUES = {null, "a", "b", "c"};

    @Test
    void agreesWithBruteForceOnSmallHistories() {
        long seed = Seeds.seed("agreesWithBruteForceOnSmallHistories");
        Random random = new Random(seed);
        int linearizable = 0;
        for (int round = 0; round < 3_000; round++) {
            List<KeyOp> ops = randomOps(random, 2 + random.nextInt(6));
            boolean expected = BruteForce.linearizable(ops);
            linearizable += expected ? 1 : 0;

            KeySearch.Result plain = KeySearch.run(ops, 1_000_000);
            KeySearch.Result narrowed = KeySearch.run(UnknownWrites.narrow(ops), 1_000_000);

            assertThat(plain.verdict()).as("round %d: %s", round, ops).isEqualTo(expected ? LINEARIZABLE : NOT_LINEARIZABLE);
            assertThat(narrowed.verdict()).as("round %d narrowed: %s", round, ops).isEqualTo(plain.verdict());
        }
        // Both verdicts were exercised, plenty of each.
        assertThat(linearizable).isBetween(300, 2_700);
    }

    @Test
    void shrunkViolationIsAMinimalWitness() {
        long seed = Seeds.seed("shrunkViolationIsAMinimalWitness");
        Random random = new Random(seed);
        int shrunk = 0;
        for (int round = 0; round < 1_000; round++) {
            List<KeyOp> ops = randomOps(random, 3 + random.nextInt(5));
            if (BruteForce.linearizable(ops)) {
                continue;
            }
            ViolationShrinker.Shrunk result = ViolationShrinker.shrink(ops, 10_000_000, 1_000_000);

            assertThat(result.minimal()).isTrue();
            assertThat(BruteForce.linearizable(result.ops())).as("round %d: %s", round, ops).isFalse();
            Dependents dependents = new Dependents(result.ops());
            for (KeyOp op : result.ops()) {
                var removed = dependents.closure(List.of(op));
                List<KeyOp> rest = result.ops().stream().filter(o -> !removed.contains(o)).toList();
                assertThat(BruteForce.linearizable(rest)).as("round %d: without %s", round, op).isTrue();
            }
            shrunk += ops.size() - result.ops().size();
        }
        assertThat(shrunk).isPositive();
    }

    @Test
    void configurationReachedWithOtherUnknownWritesIsNotSkipped() {
        // "x" is read twice, with "y" written between. Before the first read either unknown write
        // can produce it; after "y" only the PUT can (the CAS expects absent). So the CAS must go
        // first, and having reached the first read with the PUT spent must not hide reaching it
        // with the CAS spent instead.
        HistoryBuilder h = new HistoryBuilder();
        h.putUnknown(1, "k", "x", 0, 1);
        h.casUnknown(2, "k", null, "x", 1, 2);
        h.get(3, "k", 5, 6, "x");
        h.put(3, "k", "y", 7, 8);
        h.get(3, "k", 9, 10, "x");
        List<KeyOp> ops = KeyHistories.split(h.ops()).get("k");

        assertThat(BruteForce.linearizable(ops)).isTrue();
        assertThat(KeySearch.run(ops, 1_000).verdict()).isEqualTo(LINEARIZABLE);
    }

    @Test
    void aReadOfAValueNoWriteProducesIsCaughtWhateverTheBudget() {
        // Forty concurrent writes of unknown outcome: proving by search that no order of them
        // explains a read takes far more than one step, so only the up-front check can decide.
        HistoryBuilder h = new HistoryBuilder();
        for (int i = 0; i < 40; i++) {
            h.putUnknown(i + 1, "k", "v" + i, i, i + 1);
        }
        h.get(41, "k", 50, 51, "v7");
        List<KeyOp> explained = KeyHistories.split(h.ops()).get("k");
        h.get(42, "k", 52, 53, "never-written");
        List<KeyOp> unexplained = KeyHistories.split(h.ops()).get("k");

        assertThat(KeySearch.run(explained, 1).verdict()).isEqualTo(UNKNOWN);
        assertThat(KeySearch.run(unexplained, 1).verdict()).isEqualTo(NOT_LINEARIZABLE);
    }

    private static List<KeyOp> randomOps(Random random, int count) {
        List<Operation> history = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            long invoked = random.nextInt(20);
            long completed = invoked + random.nextInt(10);
            OpKind kind = switch (random.nextInt(4)) {
                case 0 -> OpKind.GET;
                case 1 -> OpKind.PUT;
                case 2 -> OpKind.DELETE;
                default -> OpKind.CAS;
            };
            Outcome outcome = kind.isWrite() && random.nextInt(10) < 3 ? Outcome.UNKNOWN : Outcome.OK;
            boolean ok = outcome == Outcome.OK;
            String value = kind == OpKind.PUT || kind == OpKind.CAS ? VALUES[1 + random.nextInt(3)] : null;
            history.add(new Operation(id, id, kind, "k", null, value,
                    kind == OpKind.CAS ? VALUES[random.nextInt(4)] : null,
                    kind == OpKind.GET ? ReadConsistency.LINEARIZABLE : null, 0, invoked, completed, outcome,
                    kind == OpKind.GET ? VALUES[random.nextInt(4)] : null, null,
                    kind == OpKind.CAS && ok ? random.nextBoolean() : null, 0, 0, null));
        }
        return KeyHistories.split(history).get("k");
    }

    /** Tries every order of the completed operations with every subset of the unknown writes. */
    private static final class BruteForce {
        static boolean linearizable(List<KeyOp> ops) {
            return extend(ops, new boolean[ops.size()], null, 0);
        }

        private static boolean extend(List<KeyOp> ops, boolean[] used, String state, int usedCount) {
            boolean allCompletedUsed = true;
            for (int i = 0; i < ops.size(); i++) {
                if (!used[i] && !ops.get(i).unknownOutcome()) {
                    allCompletedUsed = false;
                }
            }
            if (allCompletedUsed) {
                return true;
            }
            for (int i = 0; i < ops.size(); i++) {
                KeyOp op = ops.get(i);
                if (used[i] || !op.accepts(state) || !minimal(ops, used, op)) {
                    continue;
                }
                used[i] = true;
                boolean found = extend(ops, used, op.apply(state), usedCount + 1);
                used[i] = false;
                if (found) {
                    return true;
                }
            }
            return false;
        }

        /** Whether no unused operation returned before {@code op} was invoked (ties are concurrent). */
        private static boolean minimal(List<KeyOp> ops, boolean[] used, KeyOp op) {
            for (int j = 0; j < ops.size(); j++) {
                if (!used[j] && ops.get(j).returnNanos() < op.invokedNanos()) {
                    return false;
                }
            }
            return true;
        }
    }
}
