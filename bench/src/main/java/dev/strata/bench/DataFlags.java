package dev.strata.bench;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.ThreadLocalRandom;

/** Flags shared by the subcommands that generate data: how large and how compressible the values, and the seed. */
final class DataFlags {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--value-size", defaultValue = "100", paramLabel = "BYTES",
            description = "Size of each value (${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--compressibility", defaultValue = "0.5", paramLabel = "FRACTION",
            description = "Fraction of each value that compresses away, 0 to 1 (${DEFAULT-VALUE}): values are "
                    + "random bytes repeated, like db_bench's, so they compress to about (1 - FRACTION) of their size.")
    double compressibility;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed for keys and values (default: a fresh one, printed so a run can be replayed).")
    Long seed;

    /** Checks the flags together; throws {@link ParameterException} naming the bad value. */
    void validate() {
        if (valueSize < 1) {
            throw new ParameterException(spec.commandLine(), "--value-size must be >= 1, was " + valueSize);
        }
        if (!(compressibility >= 0 && compressibility <= 1)) {
            throw new ParameterException(spec.commandLine(), "--compressibility must be in [0, 1], was " + compressibility);
        }
    }

    /** The seed given, or a fresh one. */
    long seedOrFresh() {
        return seed != null ? seed : ThreadLocalRandom.current().nextLong();
    }
}
