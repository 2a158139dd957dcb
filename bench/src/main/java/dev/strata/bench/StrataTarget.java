package dev.strata.bench;

import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.EngineStats;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;

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

    /** Opens (or creates) the engine in {@code dir}; settings left null in {@code config} keep the engine's defaults. */
    static StrataTarget open(Path dir, TargetConfig config) {
        EngineOptions.Builder builder = EngineOptions.builder().walMode(config.walMode());
        if (config.writeBufferSize() != null) {
            builder.writeBufferSize(config.writeBufferSize());
        }
        if (config.blockSize() != null) {
            builder.blockSize(config.blockSize());
        }
        if (config.bloomBitsPerKey() != null) {
            builder.bloomBitsPerKey(config.bloomBitsPerKey());
        }
        if (config.targetFileSize() != null) {
            builder.targetFileSize(config.targetFileSize());
        }
        if (config.level1MaxBytes() != null) {
            builder.level1MaxBytes(config.level1MaxBytes());
        }
        if (config.compactionThreads() != null) {
            builder.compactionThreads(config.compactionThreads());
        }
        if (config.compression() != TargetConfig.Compression.DEFAULT) {
            builder.compressionPolicy(CompressionPolicy.uniform(Codec.valueOf(config.compression().name())));
        }
        return new StrataTarget(Engine.open(dir, builder.build()));
    }

    @Override
    public String name() {
        return "strata";
    }

    /** Every component of the engine's {@link EngineOptions}, so the report keeps up as options are added. */
    @Override
    public Map<String, Object> settings() {
        EngineOptions options = engine.options();
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
