package dev.strata.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.ExitCode;
import dev.strata.cli.StrataCommand;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The strata command line end to end against three nodes: each command's output and exit code. */
class CliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static InProcessCluster cluster;
    private static String endpoints;

    /** What one run of the command line did. */
    private record Run(int code, String out, String err) {
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + out, e);
            }
        }
    }

    @BeforeAll
    static void startCluster() {
        cluster = InProcessCluster.start(dir, 3, Map.of());
        endpoints = LongStream.rangeClosed(1, 3).mapToObj(id -> cluster.node(id).clientAddress())
                .collect(Collectors.joining(","));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Run strata(String... args) {
        return strataWithInput(new byte[0], args);
    }

    private static Run strataWithInput(byte[] stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--endpoints=" + endpoints);
        int code = StrataCommand.commandLine(new ByteArrayInputStream(stdin), false)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void putGetDelPrintLikeEtcdctl() {
        assertThat(strata("put", "cli/greeting", "hello world")).isEqualTo(new Run(0, "OK\n", ""));
        assertThat(strata("get", "cli/greeting")).isEqualTo(new Run(0, "cli/greeting\nhello world\n", ""));
        assertThat(strata("get", "cli/greeting", "--print-value-only").out()).isEqualTo("hello world\n");
        assertThat(strata("get", "cli/greeting", "--consistency", "s").code()).isZero();

        Run replaced = strata("put", "cli/greeting", "hi", "--prev-kv");
        assertThat(replaced.out()).isEqualTo("OK\ncli/greeting\nhello world\n");

        JsonNode got = strata("get", "cli/greeting", "-o", "json").json();
        assertThat(got.at("/kvs/0/key").asText()).isEqualTo("cli/greeting");
        assertThat(got.at("/kvs/0/value").asText()).isEqualTo("hi");
        assertThat(got.at("/kvs/0/version").asLong()).isEqualTo(2);
        assertThat(got.at("/kvs/0/mod_revision").asLong()).isGreaterThan(got.at("/kvs/0/create_revision").asLong());

        assertThat(strata("del", "cli/greeting")).isEqualTo(new Run(0, "1\n", ""));
        assertThat(strata("del", "cli/greeting")).as("nothing to delete is not an error").isEqualTo(new Run(0, "0\n", ""));
        assertThat(strata("get", "cli/greeting")).isEqualTo(new Run(ExitCode.NOT_FOUND, "", ""));
        assertThat(strata("get", "cli/greeting", "-o", "json").json().get("kvs")).isEmpty();
    }

    @Test
    void aValueFromStandardInputKeepsEveryByte() {
        byte[] binary = new byte[300];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        assertThat(strataWithInput(binary, "put", "cli/binary").code()).isZero();
        JsonNode kv = strata("get", "cli/binary", "-o", "json").json().at("/kvs/0");
        assertThat(kv.has("value")).as("not UTF-8, so base64").isFalse();
        assertThat(Base64.getDecoder().decode(kv.get("value_base64").asText())).isEqualTo(binary);
    }

    @Test
    void rangeSelectsByEndPrefixAndFromKeyAndPages() {
        for (int i = 0; i < 12; i++) {
            assertThat(strata("put", String.format("cli/r/%02d", i), "v" + i).code()).isZero();
        }
        assertThat(strata("put", "cli/s", "after").code()).isZero();

        assertThat(strata("range", "cli/r/", "--prefix", "--keys-only").out().lines().toList())
                .hasSize(12).first().isEqualTo("cli/r/00");
        assertThat(strata("range", "cli/r/03", "cli/r/05").out()).isEqualTo("cli/r/03\nv3\ncli/r/04\nv4\n");
        assertThat(strata("range", "cli/r/", "--prefix", "--limit", "2", "--keys-only").out()).isEqualTo("cli/r/00\ncli/r/01\n");
        assertThat(strata("range", "cli/r/11", "--from-key", "--keys-only").out()).startsWith("cli/r/11\ncli/s\n");
        assertThat(strata("range", "cli/r/", "--prefix", "--count-only").out()).isEqualTo("12\n");

        JsonNode all = strata("range", "cli/r/", "--prefix", "-o", "json").json();
        assertThat(all.get("count").asLong()).isEqualTo(12);
        assertThat(all.get("kvs")).hasSize(12);
        assertThat(all.at("/kvs/11/value").asText()).isEqualTo("v11");

        assertThat(strata("del", "cli/r/", "--prefix").out()).isEqualTo("12\n");
        assertThat(strata("range", "cli/r/", "--prefix").out()).isEmpty();
    }

    @Test
    void txnRunsTheBranchItsComparesChoose() {
        String claim = "ver(\"cli/lock\") = 0\n\nput cli/lock me\nget cli/lock\n\nget cli/lock\n";
        Run first = strataWithInput(utf8(claim), "txn");
        assertThat(first).isEqualTo(new Run(0, "SUCCESS\n\nOK\n\ncli/lock\nme\n", ""));

        JsonNode second = new Run(0, strataWithInput(utf8(claim), "txn", "-o", "json").out(), "").json();
        assertThat(second.get("succeeded").asBoolean()).isFalse();
        assertThat(second.at("/responses/0/range/kvs/0/value").asText()).isEqualTo("me");

        Run bad = strataWithInput(utf8("ver(\"cli/lock\") = 0\n\nput cli/lock\n"), "txn");
        assertThat(bad.code()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err()).contains("txn line 3 (put cli/lock): put takes KEY VALUE");
        assertThat(strata("get", "cli/lock", "--print-value-only").out()).isEqualTo("me\n");
    }

    @Test
    void theShellRunsPipedLinesAndGoesOnAfterAFailure() {
        String lines = """
                # a comment, then a blank line

                put cli/sh/a first value
                put "cli/sh/b c" "quoted \\"value\\""
                get cli/sh/a
                get "cli/sh/b c"
                get cli/sh/none
                frobnicate cli/sh/a
                range cli/sh/ cli/sh/z
                del cli/sh/a
                get cli/sh/a
                exit
                put cli/sh/after-exit x
                """;
        Run shell = strataWithInput(utf8(lines), "shell");
        assertThat(shell.code()).as("a line failed").isEqualTo(ExitCode.FAILED);
        assertThat(shell.out()).isEqualTo("OK\nOK\nfirst value\nquoted \"value\"\n(not found)\n"
                + "cli/sh/a first value\ncli/sh/b c quoted \"value\"\n1\n(not found)\n");
        assertThat(shell.err()).isEqualTo("error: frobnicate cli/sh/a: unknown operation 'frobnicate'; use put, get, del or range\n");
        assertThat(strata("get", "cli/sh/after-exit").code()).as("nothing runs after exit").isEqualTo(ExitCode.NOT_FOUND);

        Run json = strataWithInput(utf8("put cli/sh/j 1\nget cli/sh/j\n"), "shell", "-o", "json");
        assertThat(json.code()).isZero();
        List<String> objects = json.out().lines().toList();
        assertThat(objects).hasSize(2);
        assertThat(new Run(0, objects.get(1), "").json().at("/kvs/0/value").asText()).isEqualTo("1");
    }

    @Test
    void statusMembersCheckpointAndLeaderTransfer() {
        Run status = strata("status");
        assertThat(status.code()).isZero();
        List<String> rows = status.out().lines().toList();
        assertThat(rows).hasSize(4);
        assertThat(rows.get(0)).startsWith("ENDPOINT").contains("ROLE", "LEADER", "TERM", "COMMIT", "APPLIED", "SIZE");
        assertThat(rows.stream().skip(1).filter(r -> r.contains(" LEADER "))).hasSize(1);

        JsonNode members = strata("members", "-o", "json").json().get("members");
        assertThat(members).hasSize(3);
        assertThat(members.get(0).get("learner").asBoolean()).isFalse();
        assertThat(members.get(0).get("client_address").asText()).isEqualTo(cluster.node(1).clientAddress());
        assertThat(strata("members").out().lines()).hasSize(4).element(1).asString().contains("voter");

        Run checkpoint = strata("checkpoint");
        assertThat(checkpoint.code()).isZero();
        assertThat(checkpoint.out()).matches("node \\d took a checkpoint at log index \\d+ \\(term \\d+\\)\\n");

        long leader = cluster.awaitLeader();
        long target = leader == 3 ? 2 : 3;
        assertThat(strata("transfer-leader", Long.toString(target)).out()).isEqualTo("leader is now " + target + "\n");
        assertThat(cluster.awaitLeader()).isEqualTo(target);
    }

    @Test
    void aNodeJoinsThroughMemberAddAndPromoteAndLeavesThroughMemberRemove() {
        InProcessCluster.Node four = cluster.startJoiningNode(4);
        try {
            Run added = strata("member-add", "4", four.raftAddress(), four.clientAddress());
            assertThat(added.code()).isZero();
            assertThat(added.out()).contains("4   learner  " + four.raftAddress());
            cluster.awaitCaughtUp(4);
            Run promoted = strata("member-promote", "4", "-o", "json");
            assertThat(promoted.code()).isZero();
            assertThat(promoted.json().get("members")).anySatisfy(m -> {
                assertThat(m.get("id").asLong()).isEqualTo(4);
                assertThat(m.get("learner").asBoolean()).isFalse();
            });
            Run removed = strata("member-remove", "4");
            assertThat(removed.code()).isZero();
            assertThat(removed.out().lines()).hasSize(4).noneMatch(l -> l.startsWith("4 "));
        } finally {
            cluster.stopNode(4);
        }
        Await.until(() -> strata("members", "-o", "json").json().get("members").size() == 3, InProcessCluster.STARTUP,
                "the cluster to be back to three members");
    }

    @Test
    void benchLoadsRunsAWorkloadAndReportsEveryOperationType() {
        Run bench = strata("bench", "--workload", "f", "--keys", "200", "--ops", "400", "--clients", "4",
                "--value-size", "2KiB", "--key-prefix", "cli/bench/", "-o", "json");
        assertThat(bench.code()).as(bench.err()).isZero();
        JsonNode report = bench.json();
        assertThat(report.at("/load/keys").asLong()).isEqualTo(200);
        assertThat(report.get("ok").asLong()).isEqualTo(400);
        assertThat(report.get("failed").asLong()).isZero();
        List<String> types = new ArrayList<>();
        long done = 0;
        for (JsonNode op : report.get("operations")) {
            types.add(op.get("op").asText());
            done += op.get("ok").asLong();
            assertThat(op.get("notFound").asLong()).as("every key was loaded").isZero();
        }
        assertThat(types).hasSize(2);
        assertThat(done).isEqualTo(400);
        assertThat(strata("range", "cli/bench/", "--prefix", "--count-only").out()).isEqualTo("200\n");

        // Open loop: 100 operations due 1 ms apart, so the last is due 99 ms after the first and
        // the run cannot be shorter than that, however fast the cluster answers.
        Run paced = strata("bench", "--workload", "c", "--keys", "200", "--no-load", "--ops", "100", "--rate", "1000",
                "--clients", "4", "--key-prefix", "cli/bench/", "-o", "json");
        assertThat(paced.code()).as(paced.err()).isZero();
        JsonNode pacedReport = paced.json();
        assertThat(pacedReport.at("/settings/rate").asDouble()).isEqualTo(1000.0);
        assertThat(pacedReport.get("ok").asLong() + pacedReport.get("failed").asLong()).isEqualTo(100);
        assertThat(pacedReport.get("seconds").asDouble()).isGreaterThanOrEqualTo(0.099);

        Run bad = strata("bench", "--workload", "logkv", "--hot-rate", "1.5");
        assertThat(bad.code()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err()).contains("--hot-rate");
        Run badRate = strata("bench", "--rate", "0");
        assertThat(badRate.code()).isEqualTo(ExitCode.USAGE);
        assertThat(badRate.err()).contains("--rate must be in (0, ");
    }

    @Test
    void unreachableEndpointsFailWithExitOneAndSayWhy() {
        String nowhere = "--endpoints=127.0.0.1:" + dev.strata.testkit.Ports.free();
        Run get = run(InputStream.nullInputStream(), "get", "k", nowhere, "--timeout=2s");
        assertThat(get.code()).isEqualTo(ExitCode.FAILED);
        assertThat(get.err()).startsWith("strata get: ").contains("UNAVAILABLE");

        Run status = run(InputStream.nullInputStream(), "status", "--endpoints=" + cluster.node(1).clientAddress()
                + "," + nowhere.substring("--endpoints=".length()), "--timeout=2s");
        assertThat(status.code()).as("one endpoint did not answer").isEqualTo(ExitCode.FAILED);
        assertThat(status.out()).contains("UNREACHABLE").contains(cluster.node(1).clientAddress());
    }

    /** Runs with exactly these arguments (no --endpoints added). */
    private static Run run(InputStream stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = StrataCommand.commandLine(stdin, false)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void theLauncherMainExitsWithTheCommandsCodeAndReadsAPipe() throws Exception {
        assertThat(launch(new byte[0], "put", "cli/proc", "--endpoints=" + endpoints)).isEqualTo(0);
        assertThat(launch(new byte[0], "get", "cli/proc/none", "--endpoints=" + endpoints)).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(launch(new byte[0], "checkpoint", "save", "--help")).as("the backup commands are there").isZero();
        assertThat(launch(new byte[0], "no-such-command")).isEqualTo(ExitCode.USAGE);
        assertThat(launch(utf8("put cli/proc/piped yes\n"), "shell", "--endpoints=" + endpoints)).isZero();
        assertThat(strata("get", "cli/proc/piped", "--print-value-only").out()).isEqualTo("yes\n");
    }

    /** Runs {@code bin/strata}'s main class as a process on this test's classpath; returns its exit code. */
    private static int launch(byte[] stdin, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.strata.cli.StrataCli"));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "cli", ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (var in = p.getOutputStream()) {
            in.write(stdin);
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("strata " + String.join(" ", args) + " did not end within 60 s");
        }
        return p.exitValue();
    }
}
