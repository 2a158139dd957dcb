package dev.strata.engine;

import java.util.concurrent.atomic.LongAdder;

/** Cumulative counters behind {@link EngineStats}. Thread-safe. */
final class Statistics {
    final LongAdder userBytes = new LongAdder();
    final LongAdder walBytes = new LongAdder();
    final LongAdder walSyncs = new LongAdder();
    final LongAdder flushBytes = new LongAdder();
    final LongAdder compactionBytesRead = new LongAdder();
    final LongAdder compactionBytesWritten = new LongAdder();
    final LongAdder flushes = new LongAdder();
    final LongAdder compactions = new LongAdder();
    final LongAdder gcCompactions = new LongAdder();
    final LongAdder valueLogBytes = new LongAdder();
    final LongAdder relocatedBytes = new LongAdder();
    final LongAdder recompressedBytes = new LongAdder();
    final LongAdder stallSlowdowns = new LongAdder();
    final LongAdder stallStops = new LongAdder();
    final LongAdder stallMicros = new LongAdder();
    volatile boolean writesStopped;
}
