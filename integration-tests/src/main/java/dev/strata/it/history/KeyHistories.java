package dev.strata.it.history;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Splits a history into one sub-history per key, the parts the linearizability checker judges
 * apart: a key-value store is linearizable exactly when each key's sub-history is (P-compositionality,
 * Horn and Kroening 2015).
 *
 * <p>What goes in: {@code OK} and {@code UNKNOWN} writes ({@code FAIL} ones certainly did nothing)
 * and {@code OK} {@link ReadConsistency#LINEARIZABLE} reads; a read that did not complete said
 * nothing. A {@code RANGE} becomes one read per key of the history that lies in
 * {@code [key, rangeEnd)}, reading the value the range returned for it or absent. That checks each
 * key's part of a range, not that the range saw all keys at one instant.
 *
 * <p>Keys are ordered with {@link String#compareTo}, which is the servers' order (UTF-8 bytes)
 * for the ASCII keys the harness writes; it differs only between characters above U+FFFF and
 * those from U+E000 to U+FFFF.
 */
final class KeyHistories {
    private KeyHistories() {}

    /** Each key's sub-history, keys sorted; a key only serializable reads touched has none. */
    static SortedMap<String, List<KeyOp>> split(List<Operation> history) {
        NavigableSet<String> keys = keysOf(history);
        SortedMap<String, List<KeyOp>> byKey = new TreeMap<>();
        for (Operation op : history) {
            if (op.isSerializableRead()) {
                continue;
            }
            if (op.kind().isWrite()) {
                if (op.outcome() != Outcome.FAIL) {
                    byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(KeyOp.write(op));
                }
            } else if (op.outcome() == Outcome.OK) {
                if (op.kind() == OpKind.GET) {
                    byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(KeyOp.read(op, op.readValue()));
                } else {
                    for (String key : covered(keys, op)) {
                        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(KeyOp.read(op, op.rangeResult().get(key)));
                    }
                }
            }
        }
        return byKey;
    }

    /** Every key some operation names or some range returned; range bounds are not keys. */
    private static NavigableSet<String> keysOf(List<Operation> history) {
        NavigableSet<String> keys = new TreeSet<>();
        for (Operation op : history) {
            if (op.kind() != OpKind.RANGE) {
                keys.add(op.key());
            } else if (op.rangeResult() != null) {
                keys.addAll(op.rangeResult().keySet());
            }
        }
        return keys;
    }

    private static NavigableSet<String> covered(NavigableSet<String> keys, Operation range) {
        if (range.key().compareTo(range.rangeEnd()) >= 0) {
            return new TreeSet<>();
        }
        return keys.subSet(range.key(), true, range.rangeEnd(), false);
    }
}
