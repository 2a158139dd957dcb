package dev.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.client.NodeStatus;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code strata status}: what every endpoint says about itself, as etcdctl's endpoint status. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Asks each endpoint for its status: member id, Raft role, the leader it follows, term, commit "
                + "and applied log index, data size. Exits with 1 when an endpoint did not answer."})
final class StatusCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    /** One endpoint's answer: a status, or why there is none. */
    private record Row(String endpoint, NodeStatus status, StrataException failure) {}

    @Override
    public Integer call() {
        List<Row> rows = new ArrayList<>();
        for (String endpoint : client.endpoints) {
            try (StrataClient c = client.connectTo(endpoint)) {
                rows.add(new Row(endpoint, c.status(), null));
            } catch (StrataException e) {
                rows.add(new Row(endpoint, null, e));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (client.json()) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            rows.forEach(r -> a.add(json(r)));
            Json.print(out, a);
        } else {
            List<List<String>> cells = new ArrayList<>();
            for (Row r : rows) {
                NodeStatus s = r.status();
                cells.add(s == null
                        ? List.of(r.endpoint(), "-", "UNREACHABLE", "-", "-", "-", "-", r.failure().getMessage())
                        : List.of(r.endpoint(), Long.toString(s.memberId()), s.role(),
                        s.leaderId() == 0 ? "none" : Long.toString(s.leaderId()), Long.toString(s.term()),
                        Long.toString(s.commitIndex()), Long.toString(s.appliedIndex()), Sizes.human(s.liveBytes())));
            }
            Text.table(out, List.of("ENDPOINT", "ID", "ROLE", "LEADER", "TERM", "COMMIT", "APPLIED", "SIZE"), cells);
        }
        boolean allAnswered = rows.stream().allMatch(r -> r.status() != null);
        return allAnswered ? ExitCode.OK : ExitCode.FAILED;
    }

    private static ObjectNode json(Row r) {
        ObjectNode n = Json.object().put("endpoint", r.endpoint());
        NodeStatus s = r.status();
        if (s == null) {
            return n.put("error", r.failure().getMessage()).put("code", r.failure().code().name());
        }
        return n.put("member_id", s.memberId()).put("role", s.role()).put("leader_id", s.leaderId())
                .put("leader_endpoint", s.leaderEndpoint()).put("raft_term", s.term()).put("commit_index", s.commitIndex())
                .put("applied_index", s.appliedIndex()).put("live_bytes", s.liveBytes());
    }
}
