package dev.strata.it.history;

import java.util.List;

/**
 * A key whose history is not linearizable, with the operations that show it.
 *
 * @param key             the key
 * @param subHistory      a sub-history of the key that is itself not linearizable, sorted by
 *                        invocation; a {@code RANGE} in it stands for its read of {@code key}
 * @param minimal         whether removing any one operation would make the sub-history linearizable
 *                        (false when shrinking ran out of budget)
 * @param operationsOnKey how many operations the key's checked history had
 * @param report          the key, then each operation of the sub-history on one line, times in ms
 *                        from the sub-history's first invocation
 */
public record KeyViolation(String key, List<Operation> subHistory, boolean minimal, int operationsOnKey,
                           String report) {

    public KeyViolation {
        subHistory = List.copyOf(subHistory);
    }
}
