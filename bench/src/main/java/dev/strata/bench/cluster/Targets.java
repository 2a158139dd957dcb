package dev.strata.bench.cluster;

import java.time.Duration;
import java.util.List;

/** The systems the driver can measure. */
enum Targets {
    STRATA,
    ETCD;

    /** A target of this system at {@code endpoints}, each operation with {@code deadline}. */
    KvTarget connect(List<String> endpoints, Duration deadline) {
        return this == STRATA ? new StrataKvTarget(endpoints, deadline) : new EtcdKvTarget(endpoints, deadline);
    }
}
