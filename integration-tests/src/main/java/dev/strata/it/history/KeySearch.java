package dev.strata.it.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides whether one key's sub-history is linearizable: the Wing–Gong search with Lowe's
 * memoisation, as porcupine and Knossos run it.
 *
 * <p>Calls and returns are events on a doubly linked list sorted by time. The search walks the
 * list, linearizing ("lifting" out of the list) any call whose operation the register accepts in
 * the current state, and backtracks when it meets the return of an operation it has not
 * linearized: that operation had to take effect before anything still in the list. Each reached
 * configuration (the operations linearized, the register's value) is cached, and one reached
 * before is not explored again; that cache is what makes real histories tractable.
 *
 * <p>A write of unknown outcome returns at infinity: it can take effect at any point after its
 * call, and once only such returns are left the history is linearizable, the remaining unknown
 * writes never having taken effect. Left open, each such write would multiply the configurations,
 * so the search only looks for linearizations of a normal form, which exist whenever any does:
 * <ul>
 *   <li>An unknown write takes effect only where it changes the register: one that changes
 *       nothing might as well never have happened.</li>
 *   <li>It is not followed directly by a {@code PUT} or {@code DELETE}, which would overwrite it
 *       unseen: again as if it never happened.</li>
 *   <li>Nor by an operation that changes nothing and accepted the state before it (a read, a CAS
 *       whose compare failed): those two can swap, moving the unknown write later.</li>
 *   <li>Of unknown writes that do the same (every {@code DELETE}, say), those invoked earlier take
 *       effect first: any two can trade places, the earlier one having been invoked in time.</li>
 * </ul>
 * Each rewrite removes an unknown write or moves one later, so rewriting ends. On top of that,
 * calls of completed operations are tried before those of unknown writes, and a configuration
 * dominated by one reached before is skipped ({@link #firstVisit}).
 *
 * <p>Thread-safe: each search has its own state.
 */
final class KeySearch {
    /** The verdict and the search steps it took; {@code UNKNOWN} means the step budget ran out. */
    record Result(LinearizabilityResult.Verdict verdict, long steps) {}

    /**
     * The part of a configuration that must match exactly for one to stand for another: the
     * completed operations linearized, the register's value, and, when the last operation
     * linearized was an unknown write, the value before it (which narrows what may come next).
     */
    private record Configuration(BitSet completed, String state, boolean afterUnknown, String stateBeforeUnknown) {}

    /** What to restore when backtracking over a linearized call. */
    private record Frame(Event call, String stateBefore, boolean unknownPass) {}

    private static final class Event {
        final KeyOp op;
        final int index;
        final boolean call;
        final long time;
        /** For the call of an unknown write: the index of the last one invoked before it that does the same, or -1. */
        int previousAlike = -1;
        Event match;
        Event prev;
        Event next;

        Event(KeyOp op, int index, boolean call, long time) {
            this.op = op;
            this.index = index;
            this.call = call;
            this.time = time;
        }
    }

    // Calls sort before returns at the same instant, making the two operations concurrent: the
    // clock cannot order them, so the checker must not either.
    private static final Comparator<Event> BY_TIME = Comparator.<Event>comparingLong(e -> e.time)
            .thenComparing(e -> e.call ? 0 : 1)
            .thenComparingInt(e -> e.index);

    private KeySearch() {}

    /**
     * Searches for a linearization of {@code ops}, giving up after {@code maxSteps} steps (one step
     * examines one event).
     *
     * @throws IllegalArgumentException if {@code maxSteps} is not positive
     */
    static Result run(List<KeyOp> ops, long maxSteps) {
        if (maxSteps <= 0) {
            throw new IllegalArgumentException("maxSteps must be positive: " + maxSteps);
        }
        if (observesUnwrittenValue(ops)) {
            return new Result(LinearizabilityResult.Verdict.NOT_LINEARIZABLE, ops.size());
        }
        Event head = eventList(ops);
        BitSet completed = new BitSet(ops.size());
        BitSet unknown = new BitSet(ops.size());
        Map<Configuration, List<BitSet>> reached = new HashMap<>();
        Deque<Frame> stack = new ArrayDeque<>();
        String state = null;
        Event event = head.next;
        // Each configuration scans its candidates twice: completed operations, then unknown writes.
        boolean unknownPass = false;
        long steps = 0;
        while (event != null) {
            if (++steps > maxSteps) {
                return new Result(LinearizabilityResult.Verdict.UNKNOWN, maxSteps);
            }
            if (event.call) {
                KeyOp op = event.op;
                Frame last = stack.peek();
                if (op.unknownOutcome() == unknownPass && op.accepts(state) && normalForm(event, state, last, unknown)) {
                    String next = op.apply(state);
                    BitSet linearized = op.unknownOutcome() ? unknown : completed;
                    linearized.set(event.index);
                    Configuration reachedNow = op.unknownOutcome()
                            ? new Configuration(completed, next, true, state)
                            : new Configuration(completed, next, false, null);
                    if (firstVisit(reached, reachedNow, unknown)) {
                        stack.push(new Frame(event, state, unknownPass));
                        state = next;
                        lift(event);
                        event = head.next;
                        unknownPass = false;
                        continue;
                    }
                    linearized.clear(event.index);
                }
                event = event.next;
            } else if (event.time == Long.MAX_VALUE) {
                // Only unknown writes are left (their returns sort last): let them never happen.
                return new Result(LinearizabilityResult.Verdict.LINEARIZABLE, steps);
            } else if (!unknownPass) {
                unknownPass = true;
                event = head.next;
            } else {
                if (stack.isEmpty()) {
                    return new Result(LinearizabilityResult.Verdict.NOT_LINEARIZABLE, steps);
                }
                Frame top = stack.pop();
                state = top.stateBefore();
                unknownPass = top.unknownPass();
                (top.call().op.unknownOutcome() ? unknown : completed).clear(top.call().index);
                unlift(top.call());
                event = top.call().next;
            }
        }
        return new Result(LinearizabilityResult.Verdict.LINEARIZABLE, steps);
    }

    /**
     * Whether a completed operation needs the key to hold a value that no operation of {@code ops}
     * may write: no order explains it. Decided up front because the search would have to exhaust
     * every order to prove it, which a long history can take past any budget.
     */
    private static boolean observesUnwrittenValue(List<KeyOp> ops) {
        Set<String> written = new HashSet<>();
        for (KeyOp op : ops) {
            if (op.mayWrite()) {
                written.add(op.written());
            }
        }
        for (KeyOp op : ops) {
            // A CAS of unknown outcome may never have run, so only a known swap is evidence.
            boolean needsValue = op.effect() == KeyOp.Effect.READ
                    || (op.effect() == KeyOp.Effect.CAS && Boolean.TRUE.equals(op.swapped()));
            if (needsValue && op.observedValue() != null && !written.contains(op.observedValue())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether linearizing {@code call}'s operation at {@code state}, after {@code last} (null at the
     * start) and with the {@code unknown} writes linearized, keeps the normal form described above.
     */
    private static boolean normalForm(Event call, String state, Frame last, BitSet unknown) {
        KeyOp op = call.op;
        if (op.unknownOutcome()) {
            if (Objects.equals(op.apply(state), state)) {
                return false;
            }
            if (call.previousAlike >= 0 && !unknown.get(call.previousAlike)) {
                return false;
            }
        }
        if (last == null || !last.call().op.unknownOutcome()) {
            return true;
        }
        return !op.blindWrite() && !(!op.mayWrite() && op.accepts(last.stateBefore()));
    }

    /**
     * Records {@code configuration} with the {@code unknown} writes linearized; false if it, or one
     * that dominates it, was reached before. A configuration dominates another when it matches it
     * but has a subset of its unknown writes linearized, and its next operation is narrowed only
     * if the other's is: unknown writes not yet linearized constrain nothing, so it can do all
     * the other can, and more. Trying completed operations first reaches dominating ones first.
     */
    private static boolean firstVisit(Map<Configuration, List<BitSet>> reached, Configuration configuration,
                                      BitSet unknown) {
        List<BitSet> unknownSets = reached.get(configuration);
        if (dominated(unknownSets, unknown)) {
            return false;
        }
        if (configuration.afterUnknown()) {
            Configuration free = new Configuration(configuration.completed(), configuration.state(), false, null);
            if (dominated(reached.get(free), unknown)) {
                return false;
            }
        }
        if (unknownSets == null) {
            unknownSets = new ArrayList<>(1);
            reached.put(new Configuration((BitSet) configuration.completed().clone(), configuration.state(),
                    configuration.afterUnknown(), configuration.stateBeforeUnknown()), unknownSets);
        }
        unknownSets.add((BitSet) unknown.clone());
        return true;
    }

    /** Whether one of {@code seen} (may be null) is a subset of {@code unknown}. */
    private static boolean dominated(List<BitSet> seen, BitSet unknown) {
        if (seen == null) {
            return false;
        }
        for (BitSet earlier : seen) {
            BitSet extra = (BitSet) earlier.clone();
            extra.andNot(unknown);
            if (extra.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** The sentinel head of the time-sorted list of every call and return in {@code ops}. */
    private static Event eventList(List<KeyOp> ops) {
        record Alike(KeyOp.Effect effect, String value, String expected) {}
        List<Event> events = new ArrayList<>(2 * ops.size());
        for (int i = 0; i < ops.size(); i++) {
            KeyOp op = ops.get(i);
            Event call = new Event(op, i, true, op.invokedNanos());
            Event ret = new Event(op, i, false, op.returnNanos());
            call.match = ret;
            events.add(call);
            events.add(ret);
        }
        events.sort(BY_TIME);
        Map<Alike, Integer> lastAlike = new HashMap<>();
        Event head = new Event(null, -1, false, Long.MIN_VALUE);
        Event last = head;
        for (Event e : events) {
            if (e.call && e.op.unknownOutcome()) {
                Integer previous = lastAlike.put(new Alike(e.op.effect(), e.op.written(), e.op.expected()), e.index);
                e.previousAlike = previous == null ? -1 : previous;
            }
            last.next = e;
            e.prev = last;
            last = e;
        }
        return head;
    }

    /** Takes a call and its return out of the list. A call always has its return after it. */
    private static void lift(Event call) {
        call.prev.next = call.next;
        call.next.prev = call.prev;
        Event ret = call.match;
        ret.prev.next = ret.next;
        if (ret.next != null) {
            ret.next.prev = ret.prev;
        }
    }

    /** Undoes {@link #lift}, in reverse order, so every neighbour pointer is restored. */
    private static void unlift(Event call) {
        Event ret = call.match;
        ret.prev.next = ret;
        if (ret.next != null) {
            ret.next.prev = ret;
        }
        call.prev.next = call;
        call.next.prev = call;
    }
}
