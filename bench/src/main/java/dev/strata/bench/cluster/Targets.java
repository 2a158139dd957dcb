package dev.strata.bench.cluster;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The systems the driver can measure, by their command-line names. */
enum Targets {
    STRATA,
    ETCD;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** A target of this system at {@code endpoints}, each operation with {@code deadline}. */
    KvTarget connect(List<String> endpoints, Duration deadline) {
        return this == STRATA ? new StrataKvTarget(endpoints, deadline) : new EtcdKvTarget(endpoints, deadline);
    }

    /** @throws ParameterException when {@code name} is neither strata nor etcd */
    static Targets named(String name, CommandSpec spec) {
        for (Targets t : values()) {
            if (t.label().equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new ParameterException(spec.commandLine(), "--target must be strata or etcd, was " + name);
    }
}
