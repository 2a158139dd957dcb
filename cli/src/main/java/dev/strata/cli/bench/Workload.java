package dev.strata.cli.bench;

import java.util.Map;

import static dev.strata.cli.bench.OpType.INSERT;
import static dev.strata.cli.bench.OpType.READ;
import static dev.strata.cli.bench.OpType.READ_MODIFY_WRITE;
import static dev.strata.cli.bench.OpType.SCAN;
import static dev.strata.cli.bench.OpType.UPDATE;

/**
 * The workloads of {@code strata bench --workload}: the six YCSB core workloads, with YCSB's
 * operation mixes and key distributions, and LogKV's read/update workload over hot keys. The
 * lower-case names are the flag's values.
 */
public enum Workload {
    /** YCSB A, update heavy: 50% reads, 50% updates, zipfian. */
    a(Distribution.zipfian, Map.of(READ, 0.5, UPDATE, 0.5)),
    /** YCSB B, read mostly: 95% reads, 5% updates, zipfian. */
    b(Distribution.zipfian, Map.of(READ, 0.95, UPDATE, 0.05)),
    /** YCSB C, read only, zipfian. */
    c(Distribution.zipfian, Map.of(READ, 1.0)),
    /** YCSB D, read latest: 95% reads, 5% inserts; reads favour the newest keys. */
    d(Distribution.latest, Map.of(READ, 0.95, INSERT, 0.05)),
    /** YCSB E, short ranges: 95% scans of 1 to --max-scan-length keys, 5% inserts, zipfian scan starts. */
    e(Distribution.zipfian, Map.of(SCAN, 0.95, INSERT, 0.05)),
    /** YCSB F, read-modify-write: 50% reads, 50% a read then a write of the same key, zipfian. */
    f(Distribution.zipfian, Map.of(READ, 0.5, READ_MODIFY_WRITE, 0.5)),
    /**
     * LogKV's: reads at --read-fraction and updates for the rest, over hot keys (--hot-fraction of
     * the keys take --hot-rate of the accesses); --hit-rate of the reads ask for keys that exist.
     */
    logkv(Distribution.hotspot, null);

    private final Distribution distribution;
    private final Map<OpType, Double> mix;

    Workload(Distribution distribution, Map<OpType, Double> mix) {
        this.distribution = distribution;
        this.mix = mix;
    }

    /** The key distribution the workload uses unless --distribution overrides it. */
    public Distribution defaultDistribution() {
        return distribution;
    }

    /** The operation mix; {@code readFraction} sets LogKV's and is ignored by the YCSB workloads. */
    OperationMix mix(double readFraction) {
        return OperationMix.of(this == logkv ? Map.of(READ, readFraction, UPDATE, 1 - readFraction) : mix);
    }
}
