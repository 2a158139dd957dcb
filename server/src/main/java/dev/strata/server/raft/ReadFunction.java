package dev.strata.server.raft;

import dev.strata.server.kv.KvView;

/** A read over a consistent view of the engine and the revision (log index) that view reflects. */
@FunctionalInterface
public interface ReadFunction<T> {
    T apply(KvView view, long revision);
}
