package dev.strata.engine.sst;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.EngineException;
import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.Coding;
import dev.strata.engine.util.FileReads;
import dev.strata.engine.util.RefCount;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a table written by {@link TableBuilder}. Opening reads and verifies the footer, index,
 * filter and properties and keeps them in memory; data blocks come from the block cache or are
 * read with one positional read, their CRC verified on every read from disk (a mismatch is
 * re-read once before it is reported, since transient read errors happen) and decompressed
 * before they are cached. Thread-safe; iterators are not.
 *
 * <p>Lifetime: a reader starts with one reference (its owner's, usually the table cache).
 * Users {@link #tryAcquire()} and {@link #release()}; the file closes when the last reference
 * goes, so an evicted table stays readable by the iterators still using it.
 */
public final class TableReader {
    private final Path path;
    private final long fileNumber;
    private final FileChannel channel;
    private final long fileSize;
    private final byte[][] indexKeys;
    private final BlockHandle[] indexHandles;
    private final BloomFilter filter;
    private final TableProperties properties;
    private final FilterStats filterStats;
    private final BlockCache blockCache;
    private final RefCount refs;

    private TableReader(Path path, long fileNumber, FileChannel channel, long fileSize, byte[][] indexKeys,
                        BlockHandle[] indexHandles, BloomFilter filter, TableProperties properties, FilterStats filterStats,
                        BlockCache blockCache) {
        this.path = path;
        this.fileNumber = fileNumber;
        this.channel = channel;
        this.fileSize = fileSize;
        this.indexKeys = indexKeys;
        this.indexHandles = indexHandles;
        this.filter = filter;
        this.properties = properties;
        this.filterStats = filterStats;
        this.blockCache = blockCache;
        this.refs = new RefCount(this::closeChannel);
    }

    /**
     * Opens and verifies a table's metadata.
     *
     * @param blockCache where data blocks are cached across lookups
     * @throws CorruptionException when the footer, index, filter or properties are damaged
     */
    public static TableReader open(Path path, long fileNumber, FilterStats filterStats, BlockCache blockCache)
            throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
        try {
            long size = ch.size();
            if (size < TableFormat.FOOTER_SIZE) {
                throw new CorruptionException(path, 0, "table of " + size + " bytes is shorter than its footer");
            }
            long footerAt = size - TableFormat.FOOTER_SIZE;
            String[] why = new String[1];
            TableFormat.Footer footer = TableFormat.Footer.decode(FileReads.readFully(ch, path, footerAt, TableFormat.FOOTER_SIZE), why);
            if (footer == null) {
                throw new CorruptionException(path, footerAt, why[0]);
            }
            for (BlockHandle h : List.of(footer.filter(), footer.properties(), footer.index())) {
                if (h.offset() < 0 || h.size() < 0 || h.offset() + h.size() + TableFormat.BLOCK_TRAILER_SIZE > footerAt) {
                    throw new CorruptionException(path, footerAt, "footer points outside the file: " + h);
                }
            }
            byte[] indexBlock = readVerified(ch, path, footer.index(), "index");
            List<byte[]> keys = new ArrayList<>();
            List<BlockHandle> handles = new ArrayList<>();
            try {
                Block.BlockIterator it = new Block(indexBlock, InternalKey.COMPARATOR).iterator();
                for (it.seekToFirst(); it.valid(); it.next()) {
                    keys.add(it.key());
                    handles.add(BlockHandle.decodeFrom(new ByteReader(it.value())));
                }
            } catch (Block.BlockFormatException | ByteReader.MalformedException e) {
                throw new CorruptionException(path, footer.index().offset(), "index block malformed: " + e.getMessage());
            }
            BloomFilter filter = null;
            if (footer.filter().size() > 0) {
                try {
                    filter = new BloomFilter(readVerified(ch, path, footer.filter(), "filter"));
                } catch (IllegalArgumentException e) {
                    throw new CorruptionException(path, footer.filter().offset(), "filter block malformed: " + e.getMessage());
                }
            }
            TableProperties props;
            try {
                props = TableProperties.decode(readVerified(ch, path, footer.properties(), "properties"));
            } catch (ByteReader.MalformedException e) {
                throw new CorruptionException(path, footer.properties().offset(), "properties block malformed: " + e.getMessage());
            }
            return new TableReader(path, fileNumber, ch, size, keys.toArray(new byte[0][]),
                    handles.toArray(new BlockHandle[0]), filter, props, filterStats, blockCache);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public long fileNumber() {
        return fileNumber;
    }

    public long fileSize() {
        return fileSize;
    }

    public TableProperties properties() {
        return properties;
    }

    /** Takes a reference; false when the reader is already closed (the caller reopens). */
    public boolean tryAcquire() {
        return refs.tryAcquire();
    }

    /** Drops a reference; the last one closes the file. */
    public void release() {
        refs.release();
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            throw EngineException.io("closing " + path, e);
        }
    }

    /** The newest version of {@code userKey} visible at {@code sequence} in this table. */
    public Lookup get(byte[] userKey, long sequence) throws IOException {
        if (filter != null && !filter.mayContain(userKey, 0, userKey.length)) {
            filterStats.recordUseful();
            return Lookup.NOT_FOUND;
        }
        byte[] target = InternalKey.encodeLookupKey(userKey, sequence);
        int b = findBlock(target);
        if (b < indexKeys.length) {
            Block.BlockIterator it = dataBlock(b).iterator();
            try {
                it.seek(target);
            } catch (Block.BlockFormatException e) {
                throw blockCorruption(b, e);
            }
            if (it.valid() && InternalKey.compareUserKey(it.key(), userKey) == 0) {
                return Lookup.ofEntry(it.key(), it.value());
            }
        }
        if (filter != null) {
            filterStats.recordFalsePositive();
        }
        return Lookup.NOT_FOUND;
    }

    /** Index of the first data block whose last key is at or after {@code target}; the block count if none. */
    private int findBlock(byte[] target) {
        int lo = 0;
        int hi = indexKeys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (InternalKey.COMPARATOR.compare(indexKeys[mid], target) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private Block dataBlock(int i) throws IOException {
        BlockHandle h = indexHandles[i];
        byte[] contents = blockCache.get(fileNumber, h.offset(), () -> readVerified(channel, path, h, "data"));
        try {
            return new Block(contents, InternalKey.COMPARATOR);
        } catch (Block.BlockFormatException e) {
            throw blockCorruption(i, e);
        }
    }

    private CorruptionException blockCorruption(int block, RuntimeException e) {
        return new CorruptionException(path, indexHandles[block].offset(), "data block malformed: " + e.getMessage());
    }

    /** Reads a block and its trailer, verifies the CRC (re-reading once on mismatch) and decompresses it. */
    private static byte[] readVerified(FileChannel ch, Path path, BlockHandle h, String kind) throws IOException {
        if (h.size() > Integer.MAX_VALUE - TableFormat.BLOCK_TRAILER_SIZE) {
            throw new CorruptionException(path, h.offset(), kind + " block size " + h.size() + " is impossible");
        }
        int stored = (int) h.size();
        byte[] buf = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            buf = FileReads.readFully(ch, path, h.offset(), stored + TableFormat.BLOCK_TRAILER_SIZE);
            if (TableFormat.blockCrc(buf, 0, stored, buf[stored]) == Coding.getInt(buf, stored + 1)) {
                break;
            }
            if (attempt == 1) {
                throw new CorruptionException(path, h.offset(), kind + " block checksum mismatch");
            }
        }
        Codec codec;
        try {
            codec = Codec.fromId(buf[stored]);
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, h.offset(), kind + " block: " + e.getMessage());
        }
        try {
            return codec.decompress(buf, 0, stored);
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, h.offset(), kind + " block: " + e.getMessage());
        }
    }

    /** An iterator over every entry. Hold a reference while it is open. */
    public InternalIterator iterator() {
        return new TableIterator();
    }

    /** Index block -> data block two-level iteration (LevelDB's {@code two_level_iterator}). */
    private final class TableIterator implements InternalIterator {
        private int block = -1;
        private Block.BlockIterator current;

        @Override
        public boolean valid() {
            return current != null && current.valid();
        }

        @Override
        public void seekToFirst() {
            openBlock(0);
            if (current != null) {
                guarded(current::seekToFirst);
            }
            skipEmptyBlocks();
        }

        @Override
        public void seek(byte[] target) {
            openBlock(findBlock(target));
            if (current != null) {
                guarded(() -> current.seek(target));
            }
            skipEmptyBlocks();
        }

        @Override
        public void next() {
            guarded(current::next);
            skipEmptyBlocks();
        }

        private void skipEmptyBlocks() {
            while (current != null && !current.valid()) {
                openBlock(block + 1);
                if (current != null) {
                    guarded(current::seekToFirst);
                }
            }
        }

        private void openBlock(int i) {
            block = i;
            if (i >= indexHandles.length) {
                current = null;
                return;
            }
            try {
                current = dataBlock(i).iterator();
            } catch (IOException e) {
                throw EngineException.io("reading " + path, e);
            }
        }

        private void guarded(Runnable r) {
            try {
                r.run();
            } catch (Block.BlockFormatException e) {
                throw blockCorruption(block, e);
            }
        }

        @Override
        public byte[] key() {
            return current.key();
        }

        @Override
        public byte[] value() {
            return current.value();
        }

        @Override
        public void close() {
            current = null;
        }
    }
}
