package dev.strata.cli.bench;

import dev.strata.client.Batch;
import dev.strata.client.Consistency;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.RangeOptions;
import dev.strata.client.StrataClient;

import java.util.List;
import java.util.stream.Stream;

/** Strata through the Java SDK, which sends writes to the leader and follows its changes. */
public final class StrataTarget implements Target {
    /** A batch is one Raft entry; the server's limit is far above what the loader's 1 MiB batches reach. */
    private static final int MAX_BATCH_KEYS = 1000;

    private final StrataClient client;
    private final List<String> endpoints;

    /** @param client closed with this target */
    public StrataTarget(StrataClient client, List<String> endpoints) {
        this.client = client;
        this.endpoints = List.copyOf(endpoints);
    }

    @Override
    public String system() {
        return "strata";
    }

    @Override
    public List<String> endpoints() {
        return endpoints;
    }

    @Override
    public void checkReachable() {
        client.status();
    }

    @Override
    public boolean get(byte[] key, Consistency consistency) {
        return client.get(key, consistency).isPresent();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        client.put(key, value);
    }

    @Override
    public void scan(byte[] from, byte[] end, int limit, Consistency consistency) {
        RangeOptions options = RangeOptions.defaults().withConsistency(consistency).withLimit(limit).withPageSize(limit);
        try (Stream<KeyValue> kvs = client.range(KeyRange.between(from, end), options)) {
            kvs.forEach(kv -> { });
        }
    }

    @Override
    public void putAll(List<byte[]> keys, List<byte[]> values) {
        Batch batch = client.batch();
        for (int i = 0; i < keys.size(); i++) {
            batch.put(keys.get(i), values.get(i));
        }
        batch.commit();
    }

    @Override
    public int maxBatchKeys() {
        return MAX_BATCH_KEYS;
    }

    @Override
    public void settle() {
        // Strata keeps no history to compact.
    }

    @Override
    public void close() {
        client.close();
    }
}
