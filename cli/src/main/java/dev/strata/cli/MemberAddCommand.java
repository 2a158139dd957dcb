package dev.strata.cli;

import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code strata member-add ID RAFT_ADDRESS CLIENT_ADDRESS}: adds a learner. */
@Command(name = "member-add", mixinStandardHelpOptions = true,
        description = {"Adds node ID as a learner: it receives the log (or a checkpoint) but does not vote. Start the "
                + "node with strata.cluster.join=true first; once it has caught up (strata status shows its applied "
                + "index near the leader's), make it a voter with member-promote. Prints the members after."})
final class MemberAddCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "the new node's id (strata.node.id), a positive number")
    long id;

    @Parameters(index = "1", paramLabel = "RAFT_ADDRESS", description = "host:port of its Raft transport")
    String raftAddress;

    @Parameters(index = "2", paramLabel = "CLIENT_ADDRESS", description = "host:port of its gRPC API")
    String clientAddress;

    @Override
    public Integer call() {
        MemberIds.requirePositive(spec, id);
        try (StrataClient c = client.connect()) {
            MembersCommand.print(spec.commandLine().getOut(), client.json(), c.addMember(id, raftAddress, clientAddress));
        }
        return ExitCode.OK;
    }
}
