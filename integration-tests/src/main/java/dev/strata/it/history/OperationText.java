package dev.strata.it.history;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Operations as the checkers' reports print them: one line each, with times in milliseconds from
 * an origin so that a sub-history reads on its own.
 */
final class OperationText {
    /** Larger range results are abbreviated to this many entries. */
    private static final int RANGE_ENTRIES_SHOWN = 8;

    private OperationText() {}

    /**
     * {@code ops} sorted by invocation, one indented line each, times relative to {@code originNanos}.
     *
     * @param focusKey for a {@code RANGE}, the key whose part of the result to show; {@code null} shows the result
     */
    static String block(List<Operation> ops, long originNanos, String focusKey) {
        StringBuilder out = new StringBuilder();
        ops.stream()
                .sorted(Comparator.comparingLong(Operation::invokedNanos).thenComparingLong(Operation::id))
                .forEach(op -> out.append("    ").append(line(op, originNanos, focusKey)).append('\n'));
        return out.toString();
    }

    /**
     * The earliest invocation in {@code ops}, the origin that makes their times read on their own;
     * {@link Long#MAX_VALUE} when there are none.
     */
    static long origin(List<Operation> ops) {
        return ops.stream().mapToLong(Operation::invokedNanos).min().orElse(Long.MAX_VALUE);
    }

    /** {@code op} on one line after its invoke and complete times, in ms after {@code originNanos}. */
    static String line(Operation op, long originNanos, String focusKey) {
        return String.format(Locale.ROOT, "[%10.3f, %10.3f] ms  %s",
                millis(op.invokedNanos() - originNanos), millis(op.completedNanos() - originNanos),
                describe(op, focusKey));
    }

    /** {@code op}'s id, client, kind, arguments, outcome and result, without times. */
    static String describe(Operation op, String focusKey) {
        StringBuilder s = new StringBuilder()
                .append('#').append(op.id()).append(" client ").append(op.client()).append(' ')
                .append(op.kind()).append(' ').append(quote(op.key()));
        switch (op.kind()) {
            case PUT -> s.append(" = ").append(quote(op.value()));
            case CAS -> s.append(" if ").append(valueOrAbsent(op.expected())).append(" then ").append(quote(op.value()));
            case RANGE -> s.append(" .. ").append(quote(op.rangeEnd()));
            case GET, DELETE -> { }
        }
        if (op.consistency() == ReadConsistency.SERIALIZABLE) {
            s.append(" (serializable, node ").append(op.node()).append(')');
        }
        s.append(" -> ").append(op.outcome());
        if (op.outcome() != Outcome.OK) {
            return op.error() == null ? s.toString() : s.append(" (").append(op.error()).append(')').toString();
        }
        switch (op.kind()) {
            case GET -> {
                s.append(' ').append(valueOrAbsent(op.readValue()));
                if (op.modRevision() != 0) {
                    s.append(" mod_rev ").append(op.modRevision());
                }
            }
            case CAS -> s.append(op.casSucceeded() ? " swapped" : " not swapped");
            case RANGE -> s.append(' ').append(rangeResult(op.rangeResult(), focusKey));
            case PUT, DELETE -> { }
        }
        return s.append(" rev ").append(op.headerRevision()).toString();
    }

    private static String rangeResult(Map<String, String> result, String focusKey) {
        if (focusKey != null) {
            return quote(focusKey) + " " + valueOrAbsent(result.get(focusKey)) + " (of " + result.size() + " keys)";
        }
        String shown = result.entrySet().stream().limit(RANGE_ENTRIES_SHOWN)
                .map(e -> quote(e.getKey()) + "=" + quote(e.getValue()))
                .collect(Collectors.joining(", "));
        return "{" + shown + (result.size() > RANGE_ENTRIES_SHOWN ? ", ... " + result.size() + " keys" : "") + "}";
    }

    static String valueOrAbsent(String value) {
        return value == null ? "absent" : quote(value);
    }

    static String quote(String s) {
        return '"' + s + '"';
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
