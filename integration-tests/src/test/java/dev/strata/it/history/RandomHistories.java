package dev.strata.it.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;

/**
 * Histories generated from the register model, linearizable by construction: each operation takes
 * effect at a point between its invocation and completion (a write of unknown outcome: at a point
 * after its invocation, or never), and its result is what the model gave at that point.
 */
final class RandomHistories {
    /** What the generator may produce. */
    record Shape(int operations, int clients, int keys, long maxLatencyNanos, double unknownWrites) {}

    private final Random random;
    private final Shape shape;
    private final List<String> keys = new ArrayList<>();

    private RandomHistories(long seed, Shape shape) {
        this.random = new Random(seed);
        this.shape = shape;
        for (int k = 0; k < shape.keys(); k++) {
            keys.add(String.format("key%02d", k));
        }
    }

    /** One operation at a time, each completing before the next is invoked, by random clients. */
    static List<Operation> sequential(long seed, int operations, int keys) {
        return new RandomHistories(seed, new Shape(operations, 1, keys, 1_000_000, 0)).generate(true);
    }

    /** {@code shape.clients()} clients, each one operation at a time, overlapping each other. */
    static List<Operation> concurrent(long seed, Shape shape) {
        return new RandomHistories(seed, shape).generate(false);
    }

    private record Planned(long id, int client, OpKind kind, String key, String rangeEnd, ReadConsistency consistency,
                           long invoked, long completed, long effectAt, Outcome outcome) {}

    private List<Operation> generate(boolean sequential) {
        List<Planned> plan = new ArrayList<>();
        long[] clientClock = new long[shape.clients()];
        long clock = 0;
        for (long id = 1; id <= shape.operations(); id++) {
            int client = sequential ? 1 + random.nextInt(8) : random.nextInt(shape.clients());
            long invoked = sequential ? clock : clientClock[client];
            long completed = invoked + 1 + (long) (random.nextDouble() * shape.maxLatencyNanos());
            OpKind kind = OpKind.values()[random.nextInt(OpKind.values().length)];
            Outcome outcome = kind.isWrite() && random.nextDouble() < shape.unknownWrites() ? Outcome.UNKNOWN : Outcome.OK;
            long effectAt = invoked + (long) (random.nextDouble() * (completed - invoked));
            if (outcome == Outcome.UNKNOWN) {
                // Anywhere from its invocation to well after the client gave up, or never (-1).
                effectAt = random.nextBoolean() ? -1 : invoked + (long) (random.nextDouble() * 4 * (completed - invoked));
            }
            String key = keys.get(random.nextInt(keys.size()));
            String rangeEnd = null;
            if (kind == OpKind.RANGE) {
                int from = random.nextInt(keys.size());
                int to = from + 1 + random.nextInt(3);
                key = keys.get(from);
                rangeEnd = to < keys.size() ? keys.get(to) : "key~";
            }
            ReadConsistency consistency = kind.isWrite() ? null : ReadConsistency.LINEARIZABLE;
            plan.add(new Planned(id, sequential ? client : client + 1, kind, key, rangeEnd, consistency,
                    invoked, completed, effectAt, outcome));
            clock = completed + 1 + random.nextInt(1000);
            if (!sequential) {
                clientClock[client] = completed + random.nextInt(1000);
            }
        }
        return apply(plan);
    }

    /** Runs the plan through the model in order of effect, giving each operation its result. */
    private List<Operation> apply(List<Planned> plan) {
        TreeMap<String, String> state = new TreeMap<>();
        List<String> written = new ArrayList<>();
        Map<Long, Operation> done = new HashMap<>();
        long revision = 0;
        List<Planned> byEffect = new ArrayList<>(plan.stream().filter(p -> p.effectAt() >= 0).toList());
        byEffect.sort(Comparator.comparingLong(Planned::effectAt).thenComparingLong(Planned::id));
        for (Planned p : byEffect) {
            String value = "v" + p.id();
            String current = state.get(p.key());
            Operation op = switch (p.kind()) {
                case PUT -> {
                    state.put(p.key(), value);
                    written.add(value);
                    yield operation(p, value, null, null, null, null, ++revision);
                }
                case DELETE -> {
                    state.remove(p.key());
                    yield operation(p, null, null, null, null, null, ++revision);
                }
                case CAS -> {
                    String expected = random.nextInt(10) < 7 || written.isEmpty() ? current
                            : written.get(random.nextInt(written.size()));
                    boolean swapped = Objects.equals(current, expected);
                    if (swapped) {
                        state.put(p.key(), value);
                        written.add(value);
                    }
                    yield operation(p, value, expected, null, null, swapped, ++revision);
                }
                case GET -> operation(p, null, null, current, null, null, revision);
                case RANGE -> operation(p, null, null, null,
                        new TreeMap<>(state.subMap(p.key(), p.rangeEnd())), null, revision);
            };
            done.put(p.id(), op);
        }
        List<Operation> history = new ArrayList<>();
        for (Planned p : plan) {
            Operation op = done.get(p.id());
            if (op == null) {
                // An unknown write that never took effect: its arguments are all the history has.
                String expected = p.kind() == OpKind.CAS ? "v" + random.nextInt(plan.size()) : null;
                op = operation(p, p.kind() == OpKind.DELETE ? null : "v" + p.id(), expected, null, null, null, 0);
            }
            history.add(op);
        }
        return history;
    }

    private Operation operation(Planned p, String value, String expected, String readValue,
                                Map<String, String> rangeResult, Boolean swapped, long revision) {
        boolean ok = p.outcome() == Outcome.OK;
        return new Operation(p.id(), p.client(), p.kind(), p.key(), p.rangeEnd(), value, expected, p.consistency(), 0,
                p.invoked(), p.completed(), p.outcome(), readValue, rangeResult,
                ok ? swapped : null, ok ? revision : 0, 0, ok ? null : "DEADLINE_EXCEEDED: gave up");
    }
}
