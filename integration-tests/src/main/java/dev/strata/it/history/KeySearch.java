package dev.strata.it.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides whether one key's sub-history is linearizable: the Wing–Gong search with Lowe's
 * memoisation, as porcupine and Knossos run it.
 *
 * <p>Calls and returns are events on a doubly linked list sorted by time. The search walks the
 * list, linearizing ("lifting" out of the list) any call whose operation the register accepts in
 * the current state, and backtracks when it meets the return of an operation it has not
 * linearized: that operation had to take effect before anything still in the list. Each reached
 * configuration (the set of linearized operations, the register's value) is cached, and one
 * reached before is not explored again; that cache is what makes real histories tractable.
 *
 * <p>A write of unknown outcome returns at infinity: it can take effect at any point after its
 * call, and once only such returns are left the history is linearizable, the remaining unknown
 * writes never having taken effect.
 *
 * <p>Not thread-safe; each call is independent.
 */
final class KeySearch {
    /** The verdict and the search steps it took; {@code UNKNOWN} means the step budget ran out. */
    record Result(LinearizabilityResult.Verdict verdict, long steps) {}

    /** A configuration reached: which operations are linearized, and the register's value then. */
    private record Configuration(BitSet linearized, String state) {}

    /** What to restore when backtracking over a linearized call. */
    private record Frame(Event call, String stateBefore) {}

    private static final class Event {
        final KeyOp op;
        final int index;
        final boolean call;
        final long time;
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
        Event head = eventList(ops);
        BitSet linearized = new BitSet(ops.size());
        Set<Configuration> reached = new HashSet<>();
        Deque<Frame> stack = new ArrayDeque<>();
        String state = null;
        Event event = head.next;
        long steps = 0;
        while (event != null) {
            if (++steps > maxSteps) {
                return new Result(LinearizabilityResult.Verdict.UNKNOWN, maxSteps);
            }
            if (event.call) {
                KeyOp op = event.op;
                if (op.accepts(state)) {
                    String next = op.apply(state);
                    linearized.set(event.index);
                    if (!reached.contains(new Configuration(linearized, next))) {
                        reached.add(new Configuration((BitSet) linearized.clone(), next));
                        stack.push(new Frame(event, state));
                        state = next;
                        lift(event);
                        event = head.next;
                        continue;
                    }
                    linearized.clear(event.index);
                }
                event = event.next;
            } else if (event.time == Long.MAX_VALUE) {
                // Only unknown writes are left (their returns sort last): let them never happen.
                return new Result(LinearizabilityResult.Verdict.LINEARIZABLE, steps);
            } else {
                if (stack.isEmpty()) {
                    return new Result(LinearizabilityResult.Verdict.NOT_LINEARIZABLE, steps);
                }
                Frame top = stack.pop();
                state = top.stateBefore();
                linearized.clear(top.call().index);
                unlift(top.call());
                event = top.call().next;
            }
        }
        return new Result(LinearizabilityResult.Verdict.LINEARIZABLE, steps);
    }

    /** The sentinel head of the time-sorted list of every call and return in {@code ops}. */
    private static Event eventList(List<KeyOp> ops) {
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
        Event head = new Event(null, -1, false, Long.MIN_VALUE);
        Event last = head;
        for (Event e : events) {
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
