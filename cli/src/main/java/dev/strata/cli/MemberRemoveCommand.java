package dev.strata.cli;

import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code strata member-remove ID}. */
@Command(name = "member-remove", mixinStandardHelpOptions = true, description = "Removes member ID (voter or learner) from the cluster; stop its process afterwards. Prints the members after.")
final class MemberRemoveCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "the member's id")
    long id;

    @Override
    public Integer call() {
        MemberIds.requirePositive(spec, id);
        try (StrataClient c = client.connect()) {
            MembersCommand.print(spec.commandLine().getOut(), client.json(), c.removeMember(id));
        }
        return ExitCode.OK;
    }
}
