package dev.strata.engine.sst;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a table holds, written in its properties block so tools and the engine can describe a
 * file without reading its data. Encoded as {@code [varint count]{[name][value]}} with
 * length-prefixed UTF-8 names and length-prefixed values (numbers as varints inside), so new
 * properties can be added and unknown ones are ignored.
 *
 * @param entries          entries, tombstones included
 * @param deletions        tombstones
 * @param rawKeyBytes      sum of encoded internal key lengths
 * @param rawValueBytes    sum of value lengths
 * @param dataBlocks       data blocks
 * @param rawDataBytes     data block bytes before compression
 * @param storedDataBytes  data block bytes as stored (after selective compression)
 * @param blocksPerCodec   data blocks stored with each codec, indexed by {@link Codec#ordinal()}
 * @param smallestKey      first encoded internal key
 * @param largestKey       last encoded internal key
 * @param smallestSequence lowest sequence number of an entry
 * @param largestSequence  highest sequence number of an entry
 */
public record TableProperties(
        long entries,
        long deletions,
        long rawKeyBytes,
        long rawValueBytes,
        long dataBlocks,
        long rawDataBytes,
        long storedDataBytes,
        long[] blocksPerCodec,
        byte[] smallestKey,
        byte[] largestKey,
        long smallestSequence,
        long largestSequence) {

    byte[] encode() {
        Map<String, byte[]> p = new LinkedHashMap<>();
        p.put("entries", varint(entries));
        p.put("deletions", varint(deletions));
        p.put("raw.key.bytes", varint(rawKeyBytes));
        p.put("raw.value.bytes", varint(rawValueBytes));
        p.put("data.blocks", varint(dataBlocks));
        p.put("data.raw.bytes", varint(rawDataBytes));
        p.put("data.stored.bytes", varint(storedDataBytes));
        for (Codec c : Codec.values()) {
            p.put("data.blocks." + c.name().toLowerCase(), varint(blocksPerCodec[c.ordinal()]));
        }
        p.put("smallest.key", smallestKey);
        p.put("largest.key", largestKey);
        p.put("smallest.sequence", varint(smallestSequence));
        p.put("largest.sequence", varint(largestSequence));
        ByteSink out = new ByteSink(256);
        out.putVarint(p.size());
        p.forEach((name, value) -> out.putLengthPrefixed(name.getBytes(StandardCharsets.UTF_8)).putLengthPrefixed(value));
        return out.toByteArray();
    }

    /** @throws ByteReader.MalformedException when the block does not parse */
    static TableProperties decode(byte[] block) {
        ByteReader in = new ByteReader(block);
        int count = in.getVarintInt();
        Map<String, byte[]> p = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            p.put(new String(in.getLengthPrefixed(), StandardCharsets.UTF_8), in.getLengthPrefixed());
        }
        long[] perCodec = new long[Codec.values().length];
        for (Codec c : Codec.values()) {
            perCodec[c.ordinal()] = number(p, "data.blocks." + c.name().toLowerCase());
        }
        return new TableProperties(number(p, "entries"), number(p, "deletions"), number(p, "raw.key.bytes"),
                number(p, "raw.value.bytes"), number(p, "data.blocks"), number(p, "data.raw.bytes"),
                number(p, "data.stored.bytes"), perCodec, bytes(p, "smallest.key"), bytes(p, "largest.key"),
                number(p, "smallest.sequence"), number(p, "largest.sequence"));
    }

    private static byte[] varint(long v) {
        return new ByteSink(10).putVarint(v).toByteArray();
    }

    private static long number(Map<String, byte[]> p, String name) {
        byte[] v = p.get(name);
        return v == null ? 0 : new ByteReader(v).getVarint();
    }

    private static byte[] bytes(Map<String, byte[]> p, String name) {
        byte[] v = p.get(name);
        if (v == null) {
            throw new ByteReader.MalformedException("property " + name + " missing");
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableProperties t && entries == t.entries && deletions == t.deletions
                && rawKeyBytes == t.rawKeyBytes && rawValueBytes == t.rawValueBytes && dataBlocks == t.dataBlocks
                && rawDataBytes == t.rawDataBytes && storedDataBytes == t.storedDataBytes
                && Arrays.equals(blocksPerCodec, t.blocksPerCodec) && Arrays.equals(smallestKey, t.smallestKey)
                && Arrays.equals(largestKey, t.largestKey) && smallestSequence == t.smallestSequence
                && largestSequence == t.largestSequence;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(entries) * 31 + Arrays.hashCode(smallestKey);
    }

    @Override
    public String toString() {
        return "TableProperties[entries=" + entries + ", deletions=" + deletions + ", blocks=" + dataBlocks
                + ", raw=" + rawDataBytes + ", stored=" + storedDataBytes + ", seq=" + smallestSequence + ".."
                + largestSequence + "]";
    }
}
