package dev.strata.cli;

import dev.strata.client.Consistency;
import dev.strata.client.KeyValue;
import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code strata get KEY}: reads one key. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = {"Prints KEY and its value on two lines. Exits with 3 and prints nothing when the key does not exist."})
final class GetCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "KEY")
    String key;

    @Option(names = "--consistency", paramLabel = "LEVEL", defaultValue = "linearizable",
            converter = ConsistencyConverter.class,
            description = "linearizable (l): the latest committed value, confirmed with the leader; serializable (s): "
                    + "the value the answering node has applied, possibly stale, served without the leader "
                    + "(default: ${DEFAULT-VALUE})")
    Consistency consistency;

    @Option(names = "--print-value-only", description = "print the value alone")
    boolean valueOnly;

    @Override
    public Integer call() {
        try (StrataClient c = client.connect()) {
            Optional<KeyValue> kv = c.get(key.getBytes(StandardCharsets.UTF_8), consistency);
            PrintWriter out = spec.commandLine().getOut();
            if (client.json()) {
                Json.print(out, Json.object().set("kvs", Json.kvs(kv.stream().toList())));
            } else {
                kv.ifPresent(found -> Text.kv(out, found, valueOnly));
            }
            return kv.isPresent() ? ExitCode.OK : ExitCode.NOT_FOUND;
        }
    }
}
