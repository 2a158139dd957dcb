package dev.strata.cli;

import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code strata transfer-leader ID}. */
@Command(name = "transfer-leader", mixinStandardHelpOptions = true,
        description = "Hands leadership to voter ID and waits until it leads, e.g. before restarting the current leader.")
final class TransferLeaderCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "the voter that should lead")
    long id;

    @Override
    public Integer call() {
        MemberIds.requirePositive(spec, id);
        try (StrataClient c = client.connect()) {
            long leader = c.transferLeader(id);
            PrintWriter out = spec.commandLine().getOut();
            if (client.json()) {
                Json.print(out, Json.object().put("leader_id", leader));
            } else {
                out.println("leader is now " + leader);
            }
        }
        return ExitCode.OK;
    }
}
