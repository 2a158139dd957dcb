package dev.strata.cli;

import dev.strata.client.KeyRange;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The keys {@code del} and {@code range} act on, chosen as in etcdctl: {@code KEY} alone, the
 * keys in {@code [KEY, RANGE_END)}, every key with the prefix {@code KEY}, or every key from
 * {@code KEY} on.
 */
final class KeySelection {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KEY", description = "the key, the range's start, or the prefix")
    String key;

    @Parameters(index = "1", paramLabel = "RANGE_END", arity = "0..1",
            description = "the keys from KEY up to (not including) RANGE_END")
    String rangeEnd;

    @Option(names = "--prefix", description = "every key that starts with KEY (\"\" for every key)")
    boolean prefix;

    @Option(names = "--from-key", description = "every key at or after KEY")
    boolean fromKey;

    KeyRange range() {
        int ways = (rangeEnd != null ? 1 : 0) + (prefix ? 1 : 0) + (fromKey ? 1 : 0);
        if (ways > 1) {
            throw new ParameterException(spec.commandLine(), "give at most one of RANGE_END, --prefix and --from-key");
        }
        if (rangeEnd != null && rangeEnd.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "RANGE_END is empty; use --from-key for every key after KEY");
        }
        if (prefix) {
            return KeyRange.prefix(key);
        }
        if (fromKey) {
            return KeyRange.from(key);
        }
        return rangeEnd != null ? KeyRange.between(key, rangeEnd) : KeyRange.key(key);
    }
}
