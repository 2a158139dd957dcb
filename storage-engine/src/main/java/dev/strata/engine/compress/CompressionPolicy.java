package dev.strata.engine.compress;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Chooses the codec for the blocks of a new table from the level it is written to.
 *
 * <p>The default chooses by a level's <em>role</em>, not its number: flush output (L0) and the
 * levels between get {@link Codec#LZ4}, cheap to write and to read, and the bottommost level
 * that holds data gets {@link Codec#ZSTD}, where most of the data lives longest. For a small
 * database the bottommost level may be L1; it is still ZSTD, so a small database compresses as
 * well as a large one. L0 is LZ4 rather than uncompressed because a small database keeps as much
 * as a third of its data in L0: leaving it raw cost 13 to 14 points of space saving there, while
 * LZ4 cost a few percent of CPU per uncached read of L0 and no measurable write throughput (the
 * compression study in docs/benchmarks.md). A fixed per-number list ({@link #perLevel}) is
 * available for comparison and for users who want it.
 *
 * <p>An {@link #adaptive} policy is the default's, with one difference while the engine is
 * behind (memtables waiting for a flush, or more L0 tables than trigger a compaction): values
 * going into a value log get {@link Codec#LZ4} instead of zstd, so the flush that holds writers
 * back compresses several times faster. Those records are <em>provisional</em>: the value-log file counts
 * their bytes, and once the engine is calm garbage collection moves them into a zstd file. So a
 * burst of writes goes at LZ4's speed and the data ends at zstd's size.
 *
 * <p>Whatever the codec, a block that does not shrink by at least one eighth is stored raw.
 * Immutable and thread-safe; {@code Engine.setCompressionPolicy} swaps it on a live engine
 * (new tables use the new codecs, old tables stay readable).
 */
public final class CompressionPolicy {
    /**
     * zstd's own default level: a good ratio at a fast compression speed. zstd decompresses at
     * about the same speed whatever the level, several times slower than LZ4 (docs/benchmarks.md).
     */
    public static final int DEFAULT_ZSTD_LEVEL = 3;

    private final Codec level0;
    private final Codec middle;
    private final Codec bottommost;
    private final List<Codec> perLevel; // non-null: a fixed list by level number
    private final int zstdLevel;
    private final boolean adaptive;

    private CompressionPolicy(Codec level0, Codec middle, Codec bottommost, List<Codec> perLevel, int zstdLevel,
                              boolean adaptive) {
        if (zstdLevel < -7 || zstdLevel > 22) {
            throw new IllegalArgumentException("zstd level must be in [-7, 22], was " + zstdLevel);
        }
        this.level0 = level0;
        this.middle = middle;
        this.bottommost = bottommost;
        this.perLevel = perLevel;
        this.zstdLevel = zstdLevel;
        this.adaptive = adaptive;
    }

    /** The role-based default: L0 and middle levels LZ4, bottommost level ZSTD level 3. */
    public static CompressionPolicy defaults() {
        return byRole(Codec.LZ4, Codec.LZ4, Codec.ZSTD);
    }

    /** Codecs by role: L0 (flush output), levels between, and the bottommost level holding data. */
    public static CompressionPolicy byRole(Codec level0, Codec middle, Codec bottommost) {
        return new CompressionPolicy(Objects.requireNonNull(level0, "level0"), Objects.requireNonNull(middle, "middle"),
                Objects.requireNonNull(bottommost, "bottommost"), null, DEFAULT_ZSTD_LEVEL, false);
    }

    /** One codec everywhere, L0 included. */
    public static CompressionPolicy uniform(Codec codec) {
        return perLevel(codec);
    }

    /**
     * A fixed codec per level number, L0 first; levels past the end of the list use its last
     * entry (so {@code perLevel(NONE, NONE, LZ4, LZ4, ZSTD)} is RocksDB-style).
     */
    public static CompressionPolicy perLevel(Codec... codecs) {
        if (codecs.length == 0) {
            throw new IllegalArgumentException("perLevel needs at least one codec");
        }
        for (Codec c : codecs) {
            Objects.requireNonNull(c, "codec");
        }
        return new CompressionPolicy(null, null, null, List.copyOf(Arrays.asList(codecs)), DEFAULT_ZSTD_LEVEL, false);
    }

    /**
     * The role-based default that gives value logs {@link Codec#LZ4} while the engine is behind,
     * and recompresses those records with zstd once it is calm (see the class comment).
     */
    public static CompressionPolicy adaptive() {
        return new CompressionPolicy(Codec.LZ4, Codec.LZ4, Codec.ZSTD, null, DEFAULT_ZSTD_LEVEL, true);
    }

    /** The same policy with another zstd level (-7 to 22; higher is smaller and slower). */
    public CompressionPolicy withZstdLevel(int level) {
        return new CompressionPolicy(level0, middle, bottommost, perLevel, level, adaptive);
    }

    /** Whether this policy chooses by the engine's backlog ({@link #adaptive()}). */
    public boolean isAdaptive() {
        return adaptive;
    }

    public int zstdLevel() {
        return zstdLevel;
    }

    /**
     * The codec for a table written to {@code level}.
     *
     * @param bottommost true when no level below {@code level} holds data, so the table will
     *                   hold the database's oldest, longest-lived data
     */
    public Codec codecFor(int level, boolean bottommost) {
        if (level < 0) {
            throw new IllegalArgumentException("level " + level);
        }
        if (perLevel != null) {
            return perLevel.get(Math.min(level, perLevel.size() - 1));
        }
        if (level == 0) {
            return level0;
        }
        return bottommost ? this.bottommost : middle;
    }

    /** The codec a value written once and kept long (a value-log record) gets. */
    public Codec longLivedCodec() {
        return perLevel != null ? perLevel.get(perLevel.size() - 1) : bottommost;
    }

    /**
     * The codec a value-log record gets now: {@link #provisionalCodec()} while the engine is
     * {@code behind} and this policy has one, else {@link #longLivedCodec()}.
     */
    public Codec longLivedCodec(boolean behind) {
        Codec provisional = provisionalCodec();
        return behind && provisional != null ? provisional : longLivedCodec();
    }

    /**
     * The faster codec an adaptive policy gives value-log records while the engine is behind,
     * whose records are recompressed once it is calm; null when there is none (a fixed policy, or
     * a long-lived codec no slower than it).
     */
    public Codec provisionalCodec() {
        Codec longLived = longLivedCodec();
        return adaptive && longLived != Codec.LZ4 && longLived != Codec.NONE ? Codec.LZ4 : null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CompressionPolicy p && level0 == p.level0 && middle == p.middle
                && bottommost == p.bottommost && Objects.equals(perLevel, p.perLevel) && zstdLevel == p.zstdLevel
                && adaptive == p.adaptive;
    }

    @Override
    public int hashCode() {
        return Objects.hash(level0, middle, bottommost, perLevel, zstdLevel, adaptive);
    }

    @Override
    public String toString() {
        String codecs = perLevel != null ? "perLevel" + perLevel
                : (adaptive ? "adaptive" : "byRole") + "[L0=" + level0 + ", middle=" + middle + ", bottommost=" + bottommost + "]";
        return codecs + (usesZstd() ? " zstdLevel=" + zstdLevel : "");
    }

    private boolean usesZstd() {
        return perLevel != null ? perLevel.contains(Codec.ZSTD)
                : level0 == Codec.ZSTD || middle == Codec.ZSTD || bottommost == Codec.ZSTD;
    }
}
