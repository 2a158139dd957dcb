package dev.strata.engine.sst;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.util.Coding;
import dev.strata.engine.util.FileWriter;

import java.io.IOException;
import java.nio.file.Files;

/**
 * Writes a table file (format in {@link TableFormat}) from entries added in sorted order.
 * {@link #finish()} writes the meta blocks and footer and fsyncs; {@link #abandon()} deletes
 * the partial file. Not thread-safe: one builder per output file.
 */
public final class TableBuilder {
    /**
     * How a table is written.
     *
     * @param blockSize        uncompressed bytes a data block is cut at
     * @param restartInterval  keys between restart points
     * @param bloomBitsPerKey  0 for no filter
     * @param codec            codec tried on every data block (stored raw when it saves less than 1/8)
     * @param zstdLevel        level when codec is ZSTD
     */
    public record Options(int blockSize, int restartInterval, int bloomBitsPerKey, Codec codec, int zstdLevel) {}

    private final FileWriter out;
    private final Options options;
    private final BlockBuilder dataBlock;
    private final BlockBuilder indexBlock = new BlockBuilder(1);
    private final BloomFilterBuilder filter;

    private byte[] firstKey;
    private byte[] lastKey;
    private long entries;
    private long deletions;
    private long rawKeyBytes;
    private long rawValueBytes;
    private long dataBlocks;
    private long rawDataBytes;
    private long storedDataBytes;
    private final long[] blocksPerCodec = new long[Codec.values().length];
    private long smallestSequence = Long.MAX_VALUE;
    private long largestSequence;
    private boolean closed;

    public TableBuilder(FileWriter out, Options options) {
        this.out = out;
        this.options = options;
        this.dataBlock = new BlockBuilder(options.restartInterval());
        this.filter = options.bloomBitsPerKey() > 0 ? new BloomFilterBuilder(options.bloomBitsPerKey()) : null;
    }

    /** Adds an entry. REQUIRES: {@code internalKey} sorts after the previous one. */
    public void add(byte[] internalKey, byte[] value) throws IOException {
        if (lastKey != null && InternalKey.COMPARATOR.compare(lastKey, internalKey) >= 0) {
            throw new IllegalArgumentException("keys out of order: " + InternalKey.describe(internalKey)
                    + " after " + InternalKey.describe(lastKey));
        }
        if (filter != null && (lastKey == null || InternalKey.compareUserKeys(lastKey, internalKey) != 0)) {
            filter.addKey(internalKey, 0, InternalKey.userKeyLength(internalKey));
        }
        if (firstKey == null) {
            firstKey = internalKey;
        }
        dataBlock.add(internalKey, value);
        lastKey = internalKey;
        entries++;
        rawKeyBytes += internalKey.length;
        rawValueBytes += value.length;
        long seq = InternalKey.sequenceOf(internalKey);
        smallestSequence = Math.min(smallestSequence, seq);
        largestSequence = Math.max(largestSequence, seq);
        if (InternalKey.typeCodeOf(internalKey) == ValueType.DELETION.code()) {
            deletions++;
        }
        if (dataBlock.currentSize() >= options.blockSize()) {
            flushDataBlock();
        }
    }

    /** The file size so far plus the pending block: what a compaction compares to its target. */
    public long estimatedFileSize() {
        return out.position() + dataBlock.currentSize();
    }

    public long entries() {
        return entries;
    }

    private void flushDataBlock() throws IOException {
        if (dataBlock.isEmpty()) {
            return;
        }
        ByteSink contents = dataBlock.finish();
        rawDataBytes += contents.size();
        byte[] compressed = options.codec().compress(contents.array(), 0, contents.size(), options.zstdLevel());
        BlockHandle handle = compressed != null
                ? writeBlock(compressed, compressed.length, options.codec())
                : writeBlock(contents.array(), contents.size(), Codec.NONE);
        storedDataBytes += handle.size() + TableFormat.BLOCK_TRAILER_SIZE;
        blocksPerCodec[(compressed != null ? options.codec() : Codec.NONE).ordinal()]++;
        dataBlocks++;
        dataBlock.reset();
        ByteSink encodedHandle = new ByteSink(20);
        handle.encodeTo(encodedHandle);
        indexBlock.add(lastKey, encodedHandle.toByteArray());
    }

    /** Writes {@code stored[0, length)} and its trailer; returns where it went. */
    private BlockHandle writeBlock(byte[] stored, int length, Codec codec) throws IOException {
        BlockHandle handle = new BlockHandle(out.position(), length);
        out.write(stored, 0, length);
        byte[] trailer = new byte[TableFormat.BLOCK_TRAILER_SIZE];
        trailer[0] = codec.id();
        Coding.putInt(trailer, 1, TableFormat.blockCrc(stored, 0, length, codec.id()));
        out.write(trailer);
        return handle;
    }

    /**
     * Writes the remaining data, the filter, properties and index blocks and the footer, then
     * fsyncs and closes the file.
     *
     * @return the properties written, with the file's final size available from the writer
     * @throws IllegalStateException when no entry was added
     */
    public TableProperties finish() throws IOException {
        if (entries == 0) {
            throw new IllegalStateException("a table needs at least one entry");
        }
        flushDataBlock();
        BlockHandle filterHandle = filter != null ? writeMetaBlock(filter.finish()) : new BlockHandle(0, 0);
        TableProperties props = new TableProperties(entries, deletions, rawKeyBytes, rawValueBytes, dataBlocks,
                rawDataBytes, storedDataBytes, blocksPerCodec.clone(), firstKey, lastKey, smallestSequence, largestSequence);
        BlockHandle propsHandle = writeMetaBlock(props.encode());
        ByteSink index = indexBlock.finish();
        BlockHandle indexHandle = writeBlock(index.array(), index.size(), Codec.NONE);
        out.write(new TableFormat.Footer(filterHandle, propsHandle, indexHandle, TableFormat.CURRENT_VERSION).encode());
        out.sync();
        out.close();
        closed = true;
        return props;
    }

    /** Meta blocks (filter, properties, index) are stored raw: they are small or incompressible and read at open. */
    private BlockHandle writeMetaBlock(byte[] contents) throws IOException {
        return writeBlock(contents, contents.length, Codec.NONE);
    }

    /** Bytes of the finished file. REQUIRES: {@link #finish()} returned. */
    public long fileSize() {
        return out.position();
    }

    /** CRC32C of the whole finished file: with its size, the file's content id. REQUIRES: {@link #finish()} returned. */
    public int fileCrc() {
        return out.crc();
    }

    /** Closes and deletes the partial file. */
    public void abandon() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
        Files.deleteIfExists(out.path());
    }
}
