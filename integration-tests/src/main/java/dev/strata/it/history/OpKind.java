package dev.strata.it.history;

/** What a client asked for; {@link Operation} says which of its fields each kind uses. */
public enum OpKind {
    /** Reads one key. */
    GET,
    /** Sets one key to a value. */
    PUT,
    /** Makes one key absent. */
    DELETE,
    /** Sets one key to a value if it holds the expected one (or is absent, when none is expected). */
    CAS,
    /** Reads every present key in {@code [key, rangeEnd)}. */
    RANGE;

    /** Whether this kind can change the store: {@code PUT}, {@code DELETE} and {@code CAS}. */
    public boolean isWrite() {
        return this == PUT || this == DELETE || this == CAS;
    }
}
