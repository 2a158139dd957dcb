package dev.strata.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.client.DeleteResult;
import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code strata del KEY [RANGE_END] [--prefix]}: deletes keys. */
@Command(name = "del", mixinStandardHelpOptions = true,
        description = {"Deletes KEY, or every key of a range or prefix, atomically. Prints how many keys were deleted "
                + "(0 when none existed, which is not an error)."})
final class DelCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Mixin
    KeySelection keys;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (StrataClient c = client.connect()) {
            DeleteResult r = c.delete(keys.range());
            PrintWriter out = spec.commandLine().getOut();
            if (client.json()) {
                ObjectNode n = Json.object().put("revision", r.revision()).put("deleted", r.deleted());
                Json.print(out, n);
            } else {
                out.println(r.deleted());
            }
        }
        return ExitCode.OK;
    }
}
