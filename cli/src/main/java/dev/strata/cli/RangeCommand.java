package dev.strata.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.strata.client.Consistency;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.RangeOptions;
import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code strata range KEY [RANGE_END] [--prefix] [--limit N]}: lists keys in order. */
@Command(name = "range", mixinStandardHelpOptions = true,
        description = {"Prints the selected keys in byte order, each key on one line and its value on the next. "
                + "Large ranges are fetched a page at a time as they print, so memory stays small; pages are "
                + "separate reads, not one snapshot."})
final class RangeCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Mixin
    KeySelection keys;

    @Spec
    CommandSpec spec;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "0", description = "print at most N keys (0: all)")
    long limit;

    @Option(names = "--keys-only", description = "print keys without their values")
    boolean keysOnly;

    @Option(names = "--count-only", description = "print how many keys the range holds, nothing else")
    boolean countOnly;

    @Option(names = "--consistency", paramLabel = "LEVEL", defaultValue = "linearizable",
            converter = ConsistencyConverter.class,
            description = "linearizable (l) or serializable (s), as for get (default: ${DEFAULT-VALUE})")
    Consistency consistency;

    @Override
    public Integer call() throws IOException {
        if (limit < 0) {
            throw new ParameterException(spec.commandLine(), "--limit must not be negative, got " + limit);
        }
        KeyRange range = keys.range();
        PrintWriter out = spec.commandLine().getOut();
        try (StrataClient c = client.connect()) {
            if (countOnly) {
                long n = c.count(range, consistency);
                if (client.json()) {
                    Json.print(out, Json.object().put("count", n));
                } else {
                    out.println(n);
                }
                return ExitCode.OK;
            }
            RangeOptions options = RangeOptions.defaults().withLimit(limit).withConsistency(consistency);
            try (Stream<KeyValue> kvs = c.range(range, keysOnly ? options.withKeysOnly() : options)) {
                if (client.json()) {
                    printJson(out, kvs.iterator());
                } else {
                    kvs.forEach(kv -> {
                        if (keysOnly) {
                            out.println(kv.keyUtf8());
                        } else {
                            Text.kv(out, kv, false);
                        }
                    });
                }
            }
        }
        out.flush();
        return ExitCode.OK;
    }

    /** Writes {"kvs": [...], "count": n} as the pages arrive, so a large range is never held whole. */
    private static void printJson(PrintWriter out, Iterator<KeyValue> kvs) throws IOException {
        long count = 0;
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeArrayFieldStart("kvs");
            while (kvs.hasNext()) {
                Json.MAPPER.writeTree(g, Json.kv(kvs.next()));
                count++;
            }
            g.writeEndArray();
            g.writeNumberField("count", count);
            g.writeEndObject();
        }
        out.println();
    }
}
