package dev.strata.bench;

import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.EngineStats;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Strata storage engine, embedded in this process. Thread-safe as {@link BenchTarget} requires. */
final class StrataTarget implements BenchTarget {
    private final Engine engine;

    private StrataTarget(Engine engine) {
        this.engine = engine;
    }

    /** Opens (or creates) the engine in {@code dir}. */
    static StrataTarget open(Path dir, EngineOptions options) {
        return new StrataTarget(Engine.open(dir, options));
    }

    @Override
    public String name() {
        return "strata";
    }

    @Override
    public Map<String, Object> settings() {
        return describe(engine.options());
    }

    /** Every component of {@code options}, by name, so reports keep up as options are added. */
    static Map<String, Object> describe(EngineOptions options) {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (RecordComponent component : EngineOptions.class.getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(options);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read EngineOptions." + component.getName(), e);
            }
            settings.put(component.getName(), value instanceof Number || value instanceof Boolean ? value : String.valueOf(value));
        }
        return settings;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        engine.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return engine.get(key);
    }

    @Override
    public Cursor scan(byte[] fromInclusive) {
        return new StrataCursor(engine.scan(fromInclusive, null));
    }

    @Override
    public void flush() {
        engine.flush();
    }

    @Override
    public void compact() {
        engine.compactRange(null, null);
    }

    @Override
    public void waitForBackgroundWork() {
        engine.waitForCompactions();
    }

    @Override
    public StorageStats stats() {
        EngineStats s = engine.stats();
        return new StorageStats(s.writeAmplification(), s.spaceAmplification(), s.totalBytes(), s.liveBytes(),
                s.userBytesWritten(), s.flushes(), s.compactions(), s.stallMicros(),
                s.levels().stream()
                        .filter(l -> l.files() > 0)
                        .map(l -> new StorageStats.Level(l.level(), l.files(), l.storedBytes(), l.rawBytes()))
                        .toList(),
                s);
    }

    @Override
    public void close() {
        engine.close();
    }

    private static final class StrataCursor implements Cursor {
        private final KeyValueIterator iterator;
        private KeyValue current;

        StrataCursor(KeyValueIterator iterator) {
            this.iterator = iterator;
        }

        @Override
        public boolean next() {
            if (!iterator.hasNext()) {
                return false;
            }
            current = iterator.next();
            return true;
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
            iterator.close();
        }
    }
}
