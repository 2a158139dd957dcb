package dev.strata.engine.key;

/**
 * The answer of one layer of the tree (a memtable or a table) to a point lookup: the key's
 * newest visible version is a value, a pointer to a value in the value log, a tombstone, or not
 * in this layer (look deeper). {@code sequence} is the entry's (-1 when not found).
 */
public record Lookup(State state, byte[] value, long sequence) {
    public enum State {
        FOUND,
        /** Found; {@code value} is an encoded {@code ValuePointer} the caller resolves. */
        FOUND_POINTER,
        DELETED,
        NOT_FOUND
    }

    public static final Lookup NOT_FOUND = new Lookup(State.NOT_FOUND, null, -1);

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
        long sequence = InternalKey.sequenceOf(entryKey);
        if (type == ValueType.DELETION.code()) {
            return new Lookup(State.DELETED, null, sequence);
        }
        if (type == ValueType.VALUE.code()) {
            return new Lookup(State.FOUND, value, sequence);
        }
        if (type == ValueType.VALUE_POINTER.code()) {
            return new Lookup(State.FOUND_POINTER, value, sequence);
        }
        throw new IllegalArgumentException("unknown value type " + type);
    }
}
