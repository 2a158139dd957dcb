package dev.strata.it.history;

import java.util.Objects;

/**
 * One operation's part on one key: what the per-key register model ({@link KeyOp#accepts},
 * {@link KeyOp#apply}) and the search work on. A {@code RANGE} yields one read per key it covers.
 *
 * @param source      the recorded operation this part comes from
 * @param effect      what the part does to the key
 * @param value       {@code PUT} and {@code CAS}: the value written
 * @param expected    {@code CAS}: the value compared with, {@code null} = absent
 * @param swapped     {@code CAS}: whether the compare held; {@code null} when the outcome is unknown
 * @param observed    {@code READ}: the value read, {@code null} = absent
 * @param invokedNanos when the operation was invoked
 * @param returnNanos when it returned, or {@link Long#MAX_VALUE} for a write with an unknown outcome,
 *                    which may take effect at any later point or never
 */
record KeyOp(Operation source, Effect effect, String value, String expected, Boolean swapped, String observed,
             long invokedNanos, long returnNanos) {

    /** What a part does to its key. */
    enum Effect { READ, PUT, DELETE, CAS }

    /** A linearizable read that saw {@code observed}: a GET, or a RANGE's part on one key. */
    static KeyOp read(Operation source, String observed) {
        return new KeyOp(source, Effect.READ, null, null, null, observed, source.invokedNanos(), source.completedNanos());
    }

    /**
     * The write {@code source}, which is {@code OK} or {@code UNKNOWN}.
     *
     * @throws IllegalArgumentException if {@code source} is not a write
     */
    static KeyOp write(Operation source) {
        boolean unknown = source.outcome() == Outcome.UNKNOWN;
        long returned = unknown ? Long.MAX_VALUE : source.completedNanos();
        Boolean swapped = unknown ? null : source.casSucceeded();
        Effect effect = switch (source.kind()) {
            case PUT -> Effect.PUT;
            case DELETE -> Effect.DELETE;
            case CAS -> Effect.CAS;
            case GET, RANGE -> throw new IllegalArgumentException("not a write: " + source);
        };
        return new KeyOp(source, effect, source.value(), source.expected(), swapped, null, source.invokedNanos(), returned);
    }

    /** Whether this part may be linearized when the key holds {@code state} ({@code null} = absent). */
    boolean accepts(String state) {
        return switch (effect) {
            case READ -> Objects.equals(state, observed);
            case PUT, DELETE -> true;
            case CAS -> swapped == null || swapped == Objects.equals(state, expected);
        };
    }

    /** The key's state after this part, linearized at {@code state}. REQUIRES: {@code accepts(state)}. */
    String apply(String state) {
        return switch (effect) {
            case READ -> state;
            case PUT -> value;
            case DELETE -> null;
            // A CAS of unknown outcome that is linearized swaps exactly when the compare holds;
            // one that never took effect is simply never linearized.
            case CAS -> Objects.equals(state, expected) ? value : state;
        };
    }

    /** Whether this is a {@code PUT} or {@code DELETE}: a write whose effect does not depend on the state. */
    boolean blindWrite() {
        return effect == Effect.PUT || effect == Effect.DELETE;
    }

    /** Whether this part may change the key: a PUT, a DELETE, or a CAS not known to have failed its compare. */
    boolean mayWrite() {
        return effect != Effect.READ && !(effect == Effect.CAS && Boolean.FALSE.equals(swapped));
    }

    /** The value a part that {@link #mayWrite()} leaves, {@code null} = absent. */
    String written() {
        return effect == Effect.DELETE ? null : value;
    }

    /**
     * Whether this part needs the key to hold one value, {@link #observedValue()}: a read, or a CAS
     * that swapped or may have.
     */
    boolean observesValue() {
        return effect == Effect.READ || (effect == Effect.CAS && !Boolean.FALSE.equals(swapped));
    }

    /** The value a part that {@link #observesValue()} needs, {@code null} = absent. */
    String observedValue() {
        return effect == Effect.READ ? observed : expected;
    }

    /** Whether this is a CAS whose compare is known to have failed: it needs the key to differ from a value. */
    boolean failedCompare() {
        return effect == Effect.CAS && Boolean.FALSE.equals(swapped);
    }

    /** Whether this is a write of unknown outcome that may take effect at any point after its call. */
    boolean unknownOutcome() {
        return returnNanos == Long.MAX_VALUE;
    }

    /** This part, known to have taken effect by {@code returnNanos}. */
    KeyOp returningAt(long returnNanos) {
        return new KeyOp(source, effect, value, expected, swapped, observed, invokedNanos, returnNanos);
    }
}
