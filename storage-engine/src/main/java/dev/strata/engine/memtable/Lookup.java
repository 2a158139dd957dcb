package dev.strata.engine.memtable;

/**
 * The answer of one layer of the tree (a memtable or a table) to a point lookup: the key's
 * newest visible version is a value, a pointer to a value in the value log, a tombstone, or not
 * in this layer (look deeper).
 */
public record Lookup(State state, byte[] value) {
    public enum State {
        FOUND,
        /** Found; {@code value} is an encoded {@code ValuePointer} the caller resolves. */
        FOUND_POINTER,
        DELETED,
        NOT_FOUND
    }

    public static final Lookup NOT_FOUND = new Lookup(State.NOT_FOUND, null);
    public static final Lookup DELETED = new Lookup(State.DELETED, null);

    public static Lookup found(byte[] value) {
        return new Lookup(State.FOUND, value);
    }

    /** True when this layer decided the answer (found or deleted), so deeper layers need not be read. */
    public boolean isDecided() {
        return state != State.NOT_FOUND;
    }

    /**
     * The lookup result for an entry whose encoded internal key {@code entryKey} has the user
     * key being looked up: FOUND with its value or DELETED, by the entry's type.
     */
    public static Lookup ofEntry(byte[] entryKey, byte[] value) {
        int type = InternalKey.typeCodeOf(entryKey);
        if (type == ValueType.DELETION.code()) {
            return DELETED;
        }
        if (type == ValueType.VALUE.code()) {
            return found(value);
        }
        if (type == ValueType.VALUE_POINTER.code()) {
            return new Lookup(State.FOUND_POINTER, value);
        }
        throw new IllegalArgumentException("unknown value type " + type);
    }
}
