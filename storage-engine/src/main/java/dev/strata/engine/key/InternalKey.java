package dev.strata.engine.key;

import dev.strata.engine.util.Coding;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * A user key with the sequence number and type of one write to it: the unit the LSM tree
 * sorts. Order: user key ascending (unsigned bytes), then sequence descending, so the newest
 * version of a key comes first and a lookup for (key, snapshot sequence) lands on the newest
 * version that snapshot may see.
 *
 * <p>Encoded form (tables, manifest): {@code userKey || fixed64-le(sequence << 8 | type)},
 * as LevelDB's. {@link #COMPARATOR} on encoded keys and {@link #compareTo} agree.
 */
public record InternalKey(byte[] userKey, long sequence, ValueType type) implements Comparable<InternalKey> {
    /** Sequence numbers use 56 bits; the low byte of the trailer is the type. */
    public static final long MAX_SEQUENCE = (1L << 56) - 1;
    public static final int TRAILER_SIZE = 8;

    public InternalKey {
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + sequence);
        }
    }

    public static long packTrailer(long sequence, int typeCode) {
        return sequence << 8 | typeCode;
    }

    @Override
    public int compareTo(InternalKey o) {
        int c = Arrays.compareUnsigned(userKey, o.userKey);
        if (c != 0) {
            return c;
        }
        return Long.compare(packTrailer(o.sequence, o.type.code()), packTrailer(sequence, type.code()));
    }

    public byte[] encode() {
        byte[] out = Arrays.copyOf(userKey, userKey.length + TRAILER_SIZE);
        Coding.putLong(out, userKey.length, packTrailer(sequence, type.code()));
        return out;
    }

    /** The key a lookup at {@code sequence} seeks to: before every version visible at that sequence. */
    public static byte[] encodeLookupKey(byte[] userKey, long sequence) {
        byte[] out = Arrays.copyOf(userKey, userKey.length + TRAILER_SIZE);
        Coding.putLong(out, userKey.length, packTrailer(sequence, ValueType.MAX_CODE));
        return out;
    }

    /**
     * Decodes an encoded internal key.
     *
     * @throws IllegalArgumentException when it is too short or has an unknown type
     */
    public static InternalKey decode(byte[] encoded) {
        if (encoded.length < TRAILER_SIZE) {
            throw new IllegalArgumentException("internal key of " + encoded.length + " bytes");
        }
        long trailer = Coding.getLong(encoded, encoded.length - TRAILER_SIZE);
        ValueType type = ValueType.fromCode((int) (trailer & 0xFF));
        if (type == null) {
            throw new IllegalArgumentException("unknown value type " + (trailer & 0xFF));
        }
        return new InternalKey(Arrays.copyOf(encoded, encoded.length - TRAILER_SIZE), trailer >>> 8, type);
    }

    public static int userKeyLength(byte[] encoded) {
        return encoded.length - TRAILER_SIZE;
    }

    public static long sequenceOf(byte[] encoded) {
        return Coding.getLong(encoded, encoded.length - TRAILER_SIZE) >>> 8;
    }

    public static int typeCodeOf(byte[] encoded) {
        return (int) (Coding.getLong(encoded, encoded.length - TRAILER_SIZE) & 0xFF);
    }

    /** A copy of an encoded internal key with another type in its trailer (same user key and sequence). */
    public static byte[] withType(byte[] encoded, ValueType type) {
        byte[] out = encoded.clone();
        Coding.putLong(out, out.length - TRAILER_SIZE, packTrailer(sequenceOf(encoded), type.code()));
        return out;
    }

    public static byte[] userKeyOf(byte[] encoded) {
        return Arrays.copyOf(encoded, encoded.length - TRAILER_SIZE);
    }

    /** Compares the user-key parts of two encoded internal keys. */
    public static int compareUserKeys(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, 0, a.length - TRAILER_SIZE, b, 0, b.length - TRAILER_SIZE);
    }

    /** Compares the user-key part of an encoded internal key with a plain user key. */
    public static int compareUserKey(byte[] encoded, byte[] userKey) {
        return Arrays.compareUnsigned(encoded, 0, encoded.length - TRAILER_SIZE, userKey, 0, userKey.length);
    }

    /** Orders encoded internal keys: user key ascending, then trailer (sequence, type) descending. */
    public static final Comparator<byte[]> COMPARATOR = (a, b) -> {
        int c = compareUserKeys(a, b);
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(Coding.getLong(b, b.length - TRAILER_SIZE), Coding.getLong(a, a.length - TRAILER_SIZE));
    };

    @Override
    public boolean equals(Object o) {
        return o instanceof InternalKey k && sequence == k.sequence && type == k.type && Arrays.equals(userKey, k.userKey);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(userKey) * 31 + Long.hashCode(sequence);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(userKey) + "@" + sequence + ":" + type;
    }

    /** A short printable form of an encoded internal key, for errors and logs. */
    public static String describe(byte[] encoded) {
        if (encoded == null) {
            return "null";
        }
        if (encoded.length < TRAILER_SIZE) {
            return "<bad key " + HexFormat.of().formatHex(encoded) + ">";
        }
        return HexFormat.of().formatHex(encoded, 0, Math.min(32, encoded.length - TRAILER_SIZE))
                + "@" + sequenceOf(encoded) + ":" + typeCodeOf(encoded);
    }
}
