package dev.strata.engine.key;

/**
 * What an entry of the LSM tree says about its key. The code is stored in the low byte of
 * every internal key's trailer, so codes never change.
 */
public enum ValueType {
    /** The key was deleted at this sequence number (a tombstone). */
    DELETION(0),
    /** The key holds the entry's value. */
    VALUE(1),
    /**
     * The key's value lives in a value-log file; the entry holds a {@code ValuePointer}. Only
     * flush and compaction write these, never the write path (so never the WAL or a memtable).
     */
    VALUE_POINTER(2);

    /** The highest code: a lookup key carries it so it sorts before every entry of the same sequence. */
    public static final int MAX_CODE = 2;

    private final byte code;

    ValueType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** The type with this code, or null when the code is unknown (a corruption the caller reports). */
    public static ValueType fromCode(int code) {
        return switch (code) {
            case 0 -> DELETION;
            case 1 -> VALUE;
            case 2 -> VALUE_POINTER;
            default -> null;
        };
    }
}
