package dev.strata.engine.iterator;

/**
 * A forward cursor over encoded internal keys (see {@code InternalKey}) in comparator order:
 * the common interface of memtables, blocks, tables, levels and their merge, as LevelDB's
 * {@code Iterator}. A new iterator is not positioned; call a seek first.
 *
 * <p>Errors (I/O, corruption) are thrown as {@code EngineException} from the call that meets
 * them. Not thread-safe.
 */
public interface InternalIterator extends AutoCloseable {
    boolean valid();

    void seekToFirst();

    /** Positions at the first entry whose key is at or after {@code target} (an encoded internal key). */
    void seek(byte[] target);

    /** REQUIRES: {@link #valid()}. */
    void next();

    /** The current encoded internal key. REQUIRES: {@link #valid()}. Callers must not modify it. */
    byte[] key();

    /** The current value. REQUIRES: {@link #valid()}. Callers must not modify it. */
    byte[] value();

    /** Releases what the iterator holds (open tables). Idempotent. */
    @Override
    void close();
}
