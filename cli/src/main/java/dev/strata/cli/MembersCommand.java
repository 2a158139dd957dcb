package dev.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.strata.client.Member;
import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code strata members}: the cluster's voters and learners. */
@Command(name = "members", mixinStandardHelpOptions = true,
        description = "Lists the cluster's members: id, voter or learner, Raft address, client address.")
final class MembersCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (StrataClient c = client.connect()) {
            print(spec.commandLine().getOut(), client.json(), c.members());
        }
        return ExitCode.OK;
    }

    /** The member table, or a JSON {"members": [...]}; the membership commands print it after a change too. */
    static void print(PrintWriter out, boolean json, List<Member> members) {
        if (json) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            members.forEach(m -> a.add(Json.object().put("id", m.id()).put("learner", m.learner())
                    .put("raft_address", m.raftAddress()).put("client_address", m.clientAddress())));
            Json.print(out, Json.object().set("members", a));
        } else {
            Text.table(out, List.of("ID", "KIND", "RAFT ADDRESS", "CLIENT ADDRESS"), members.stream()
                    .map(m -> List.of(Long.toString(m.id()), m.learner() ? "learner" : "voter", m.raftAddress(),
                            m.clientAddress().isEmpty() ? "-" : m.clientAddress()))
                    .toList());
        }
    }
}
