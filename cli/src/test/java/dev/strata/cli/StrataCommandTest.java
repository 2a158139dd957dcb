package dev.strata.cli;

import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exit codes and error messages of the command line against a stand-in server that fails every
 * call, so each failure kind is certain; the commands' work is tested against a real cluster in
 * the integration tests.
 */
class StrataCommandTest {
    private Server server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void startFailingServer() throws IOException {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new KVGrpc.KVImplBase() {
                    @Override
                    public void put(PutRequest request, StreamObserver<PutResponse> response) {
                        // The node lost its leader after taking the write: it may or may not be applied.
                        response.onError(Status.UNAVAILABLE.withDescription("leader lost").asRuntimeException());
                    }

                    @Override
                    public void get(GetRequest request, StreamObserver<GetResponse> response) {
                        response.onError(Status.INVALID_ARGUMENT.withDescription("key is empty").asRuntimeException());
                    }
                })
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.shutdownNow();
    }

    private int run(String... args) {
        return StrataCommand.commandLine(InputStream.nullInputStream(), false)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
    }

    private String endpoint() {
        return "--endpoints=127.0.0.1:" + server.getPort();
    }

    @Test
    void aWriteWhoseAnswerWasLostExitsWithOutcomeUnknown() {
        assertThat(run("put", "k", "v", endpoint())).isEqualTo(ExitCode.OUTCOME_UNKNOWN);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).startsWith("strata put: ").contains("leader lost").contains("[UNAVAILABLE]");
    }

    @Test
    void aRequestTheClusterRefusesExitsWithFailedAndTheServersReason() {
        assertThat(run("get", "k", endpoint())).isEqualTo(ExitCode.FAILED);
        assertThat(err.toString()).contains("key is empty").contains("[INVALID_ARGUMENT]");
    }

    @Test
    void badUsageExitsWithUsageAndSaysWhatIsWrong() {
        assertThat(run("frobnicate")).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("Unmatched argument");
        assertThat(run("get")).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("Missing required parameter: 'KEY'");
        assertThat(run("get", "k", "--timeout", "soon")).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("'soon' is not a duration");
        assertThat(run("range", "a", "b", "--prefix")).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("at most one of RANGE_END, --prefix and --from-key");
        assertThat(run("member-promote", "-3")).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("a member id is a positive number");
        assertThat(run("get", "k", "-o", "yaml")).isEqualTo(ExitCode.USAGE);
        assertThat(run("shell", "--range-limit", "-1")).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("--range-limit must not be negative");
    }

    @Test
    void aValueOnStandardInputIsBounded() {
        long tooLarge = (64L << 20) + 1;
        InputStream endless = new InputStream() {
            private long left = tooLarge;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (len == 0) {
                    return 0;
                }
                int n = (int) Math.min(len, left);
                if (n == 0) {
                    return -1;
                }
                java.util.Arrays.fill(b, off, off + n, (byte) 'x');
                left -= n;
                return n;
            }
        };
        int code = StrataCommand.commandLine(endless, false).setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true)).execute("put", "k", endpoint());
        assertThat(code).as(err.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("larger than 67108864 bytes");
    }

    @Test
    void everyCommandHasHelp() {
        var cli = StrataCommand.commandLine(InputStream.nullInputStream(), false);
        for (String name : cli.getSubcommands().keySet()) {
            StringWriter help = new StringWriter();
            int code = StrataCommand.commandLine(InputStream.nullInputStream(), false)
                    .setOut(new PrintWriter(help, true)).execute(name, "--help");
            assertThat(code).as(name).isEqualTo(ExitCode.OK);
            assertThat(help.toString()).as(name).startsWith("Usage: strata " + name);
        }
        assertThat(cli.getSubcommands().keySet()).contains("put", "get", "del", "range", "txn", "status", "members",
                "member-add", "member-promote", "member-remove", "member-replace", "transfer-leader", "checkpoint", "shell", "bench");
    }

    @Test
    void everySubcommandIsFoundByItsOwnName() {
        for (String name : StrataCommand.commandLine(InputStream.nullInputStream(), false).getSubcommands().keySet()) {
            assertThat(StrataCommand.commandLineFor(new String[] {name}, InputStream.nullInputStream(), false)
                    .getSubcommands().keySet()).as(name).containsExactly(name);
        }
    }

    @Test
    void aOneShotCommandBuildsOnlyItsOwnSubcommand() {
        StringWriter help = new StringWriter();
        var cli = StrataCommand.commandLineFor(new String[] {"get", "--help"}, InputStream.nullInputStream(), false);
        assertThat(cli.getSubcommands().keySet()).containsExactly("get");
        assertThat(cli.setOut(new PrintWriter(help, true)).execute("get", "--help")).isEqualTo(ExitCode.OK);
        assertThat(help.toString()).startsWith("Usage: strata get");
    }

    @Test
    void helpAndMistypedCommandsSeeTheWholeTree() {
        var all = StrataCommand.commandLine(InputStream.nullInputStream(), false).getSubcommands().keySet();
        for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"gte", "k"})) {
            assertThat(StrataCommand.commandLineFor(args, InputStream.nullInputStream(), false).getSubcommands().keySet())
                    .as(String.join(" ", args)).isEqualTo(all);
        }
        StringWriter err = new StringWriter();
        int code = StrataCommand.commandLineFor(new String[] {"gte", "k"}, InputStream.nullInputStream(), false)
                .setErr(new PrintWriter(err, true)).execute("gte", "k");
        assertThat(code).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).as("a suggestion from the whole tree").contains("Did you mean: strata ");
    }
}
