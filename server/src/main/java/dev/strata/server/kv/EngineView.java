package dev.strata.server.kv;

import dev.strata.engine.Engine;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;
import dev.strata.engine.Snapshot;

import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import java.util.function.Function;

/** A {@link KvView} over the data namespace of an engine or of one of its snapshots. */
public final class EngineView implements KvView {
    private final Function<byte[], byte[]> get;
    private final BiFunction<byte[], byte[], KeyValueIterator> scan;
    private final RevisionCache revisions; // null: none

    private EngineView(Function<byte[], byte[]> get, BiFunction<byte[], byte[], KeyValueIterator> scan,
                       RevisionCache revisions) {
        this.get = get;
        this.scan = scan;
        this.revisions = revisions;
    }

    /** The engine's current state; for the apply thread, the only writer, this is a stable view. */
    public static EngineView of(Engine engine) {
        return new EngineView(engine::get, engine::scan, null);
    }

    /**
     * The engine's current state for the apply thread, with the cache of the revisions this
     * engine holds: {@link #revisions} answers from it, and fills it from the engine on a miss.
     */
    public static EngineView of(Engine engine, RevisionCache revisions) {
        return new EngineView(engine::get, engine::scan, revisions);
    }

    /** A consistent point-in-time view. */
    public static EngineView of(Snapshot snapshot) {
        return new EngineView(snapshot::get, snapshot::scan, null);
    }

    @Override
    public RevisionCache.Revisions revisions(byte[] userKey) {
        RevisionCache.Revisions known = revisions == null ? null : revisions.get(userKey);
        if (known != null) {
            return known;
        }
        byte[] stored = get.apply(KeySpace.data(userKey));
        if (stored == null) {
            return null;
        }
        RevisionCache.Revisions read = StoredValue.decodeRevisions(userKey, stored);
        if (revisions != null) {
            revisions.put(userKey, read);
        }
        return read;
    }

    @Override
    public StoredValue get(byte[] userKey) {
        byte[] stored = get.apply(KeySpace.data(userKey));
        return stored == null ? null : StoredValue.decode(userKey, stored);
    }

    @Override
    public Cursor scan(byte[] from, byte[] to) {
        KeyValueIterator it = scan.apply(KeySpace.data(from), KeySpace.dataEnd(to));
        return new Cursor() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Entry next() {
                if (!it.hasNext()) {
                    throw new NoSuchElementException();
                }
                KeyValue kv = it.next();
                byte[] user = KeySpace.user(kv.key());
                return new Entry(user, StoredValue.decode(user, kv.value()));
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }
}
