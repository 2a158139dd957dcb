package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Arrays;
import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * What a cluster must hold after a crash, from the commands it acknowledged: for each key of
 * {@code [0, keys)}, the state the last acknowledged command left it in, absent or the value of
 * a put (kept as the put's command number, {@link SeqValues} makes the bytes).
 *
 * <p>Invariants. A key has at most one command in flight ({@link #begin} never picks a busy key),
 * so "the last acknowledged command" is well defined: the commands on one key were issued one
 * after the other. A command whose outcome is unknown (it may or may not have been applied)
 * makes its key <em>uncertain</em>: the state before it and the state after it are both
 * correct, and the key is never given to another command, since the unknown one could still be
 * applied after it. A command that failed before it could reach the cluster changes nothing.
 *
 * <p>Thread-safe: completions arrive on gRPC's threads.
 */
final class GroundTruth {
    /** The state of a key that holds nothing; any other state is a put's command number, at least 1. */
    static final long ABSENT = 0;
    /** {@code pending} of a key with no command in flight. */
    private static final long IDLE = -1;
    /** Draws before {@link #begin} gives up on finding a free key (with many keys and few in flight, the first draw nearly always is). */
    private static final int DRAWS = 64;

    /** A command handed out by {@link #begin}: on {@code key}, leading to {@code target} (ABSENT for a delete). */
    record Command(int key, long target) {
        boolean delete() {
            return target == ABSENT;
        }
    }

    /** One key a cluster holds, as read back: {@code key} is -1 for a key outside {@code [0, keys)}. */
    record Observed(int key, byte[] value) {}

    /**
     * The check of a cluster's contents against the ground truth.
     *
     * @param pairs        keys certain to hold a value: the denominator of the error rate
     * @param wrong        of those, keys holding another value
     * @param missing      of those, keys the cluster does not hold
     * @param extra        keys certain to be absent (never written, or deleted) that the cluster holds
     * @param foreign      keys outside the key space that the cluster holds (none are ever written)
     * @param uncertain    keys whose last command's outcome is unknown, left out of the error rate
     * @param uncertainOld of those, keys in the state before that command
     * @param uncertainNew of those, keys in the state after it
     * @param uncertainBad of those, keys in neither state
     */
    record Verification(long pairs, long wrong, long missing, long extra, long foreign, long uncertain, long uncertainOld,
                        long uncertainNew, long uncertainBad) {
        /** (wrong + missing) / pairs: the data error rate. */
        @JsonProperty
        double errorRate() {
            return pairs == 0 ? 0 : (double) (wrong + missing) / pairs;
        }

        /** True when nothing at all disagrees with the ground truth. */
        @JsonProperty
        boolean clean() {
            return wrong == 0 && missing == 0 && extra == 0 && foreign == 0 && uncertainBad == 0;
        }
    }

    private final long[] acked;
    /** The state the command in flight on a key leads to, or IDLE; for an uncertain key, the state its unknown command led to. */
    private final long[] pending;
    private final boolean[] uncertain;
    /** The keys that hold a value and are not uncertain, in {@code present[0, presentCount)}; {@code slot[k]} is k's index there or -1. */
    private final int[] present;
    private final int[] slot;
    private int presentCount;
    /** The last command number handed out. */
    private long numbered;
    private long inFlight;
    private long uncertainCount;

    /** @throws IllegalArgumentException when {@code keys} is not positive */
    GroundTruth(int keys) {
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be positive, was " + keys);
        }
        acked = new long[keys];
        pending = new long[keys];
        Arrays.fill(pending, IDLE);
        uncertain = new boolean[keys];
        present = new int[keys];
        slot = new int[keys];
        Arrays.fill(slot, -1);
    }

    int keys() {
        return acked.length;
    }

    /**
     * Numbers the next command and picks its key, marking it in flight: for a delete, a key that
     * holds a value (uniformly among them); for a put, or a delete when no key holding a value is
     * free, any key (uniformly). Busy and uncertain keys are never picked. Command numbers start
     * at 1 and are never reused, so every put writes a value of its own.
     *
     * @return the command, or null when {@link #DRAWS} draws found no free key (no number is used then)
     */
    synchronized Command begin(SplittableRandom random, boolean delete) {
        if (delete && presentCount > 0) {
            for (int i = 0; i < DRAWS; i++) {
                int k = present[random.nextInt(presentCount)];
                if (pending[k] == IDLE) {
                    return start(k, ABSENT);
                }
            }
        }
        for (int i = 0; i < DRAWS; i++) {
            int k = random.nextInt(acked.length);
            if (pending[k] == IDLE && !uncertain[k]) {
                return start(k, numbered + 1);
            }
        }
        return null;
    }

    private Command start(int key, long target) {
        numbered++;
        pending[key] = target;
        inFlight++;
        return new Command(key, target);
    }

    /** The cluster acknowledged {@code c}: its target is now the key's state. */
    synchronized void acknowledged(Command c) {
        finish(c);
        acked[c.key()] = c.target();
        pending[c.key()] = IDLE;
        if (c.delete()) {
            removePresent(c.key());
        } else if (slot[c.key()] < 0) {
            slot[c.key()] = presentCount;
            present[presentCount++] = c.key();
        }
    }

    /** {@code c} failed before it could reach the cluster: the key keeps its state and is free again. */
    synchronized void notApplied(Command c) {
        finish(c);
        pending[c.key()] = IDLE;
    }

    /** {@code c}'s outcome is unknown: its key becomes uncertain for good. */
    synchronized void outcomeUnknown(Command c) {
        finish(c);
        uncertain[c.key()] = true;
        uncertainCount++;
        removePresent(c.key());
    }

    private void finish(Command c) {
        if (pending[c.key()] != c.target() || uncertain[c.key()]) {
            throw new IllegalStateException("key " + c.key() + " has no command to " + c.target() + " in flight");
        }
        inFlight--;
    }

    private void removePresent(int key) {
        int s = slot[key];
        if (s < 0) {
            return;
        }
        int last = present[--presentCount];
        present[s] = last;
        slot[last] = s;
        slot[key] = -1;
    }

    /** Commands handed out so far. */
    synchronized long commands() {
        return numbered;
    }

    synchronized long inFlight() {
        return inFlight;
    }

    synchronized long uncertainKeys() {
        return uncertainCount;
    }

    /** Keys certain to hold a value. */
    synchronized long presentKeys() {
        return presentCount;
    }

    /**
     * Checks what a cluster holds against the ground truth.
     *
     * @param observed every key the cluster holds, each once, in any order
     * @param valueOf  the value a put's command number wrote
     * @throws IllegalStateException when a command is still in flight: its key's state is not known yet
     */
    synchronized Verification verify(Iterator<Observed> observed, LongFunction<byte[]> valueOf) {
        if (inFlight != 0) {
            throw new IllegalStateException(inFlight + " commands are still in flight");
        }
        Tally t = new Tally(valueOf);
        boolean[] seen = new boolean[acked.length];
        while (observed.hasNext()) {
            Observed o = observed.next();
            if (o.key() < 0 || o.key() >= acked.length) {
                t.foreign++;
            } else {
                seen[o.key()] = true;
                check(t, o.key(), o.value());
            }
        }
        for (int k = 0; k < acked.length; k++) {
            if (!seen[k]) {
                check(t, k, null);
            }
        }
        return new Verification(t.pairs, t.wrong, t.missing, t.extra, t.foreign, t.uncertain, t.uncertainOld, t.uncertainNew,
                t.uncertainBad);
    }

    /** Classifies key {@code k} holding {@code value} (null: absent). */
    private void check(Tally t, int k, byte[] value) {
        if (uncertain[k]) {
            t.uncertain++;
            if (t.holds(value, pending[k])) {
                t.uncertainNew++;
            } else if (t.holds(value, acked[k])) {
                t.uncertainOld++;
            } else {
                t.uncertainBad++;
            }
        } else if (acked[k] == ABSENT) {
            if (value != null) {
                t.extra++;
            }
        } else {
            t.pairs++;
            if (value == null) {
                t.missing++;
            } else if (!t.holds(value, acked[k])) {
                t.wrong++;
            }
        }
    }

    private static final class Tally {
        final LongFunction<byte[]> valueOf;
        long pairs, wrong, missing, extra, foreign, uncertain, uncertainOld, uncertainNew, uncertainBad;

        Tally(LongFunction<byte[]> valueOf) {
            this.valueOf = valueOf;
        }

        /** Whether {@code value} (null: absent) is {@code state}. */
        boolean holds(byte[] value, long state) {
            return state == ABSENT ? value == null : value != null && Arrays.equals(value, valueOf.apply(state));
        }
    }
}
