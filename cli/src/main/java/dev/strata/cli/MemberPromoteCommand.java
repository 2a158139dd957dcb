package dev.strata.cli;

import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code strata member-promote ID}. */
@Command(name = "member-promote", mixinStandardHelpOptions = true, description = "Makes learner ID a voter. Prints the members after.")
final class MemberPromoteCommand implements Callable<Integer> {
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
            MembersCommand.print(spec.commandLine().getOut(), client.json(), c.promoteMember(id));
        }
        return ExitCode.OK;
    }
}
