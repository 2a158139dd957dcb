package dev.strata.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.client.PutResult;
import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code strata put KEY [VALUE]}: writes one key. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = {"Writes VALUE under KEY. Without VALUE, the value is read from standard input (all of it, "
                + "byte for byte), so files and binary data can be stored: strata put img < img.png",
                "Prints OK, or with --prev-kv the value it replaced."})
final class PutCommand implements Callable<Integer> {
    private static final int MAX_STDIN_VALUE = 64 << 20;

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @Parameters(index = "1", paramLabel = "VALUE", arity = "0..1")
    String value;

    @Option(names = "--prev-kv", description = "print the key's previous value")
    boolean prevKv;

    private final InputStream stdin;

    PutCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    /**
     * The value from standard input, refused past {@value #MAX_STDIN_VALUE} bytes so a stray pipe
     * cannot exhaust the heap (the server's own default limit is 16 MiB).
     */
    private byte[] readValue() throws IOException {
        byte[] v = stdin.readNBytes(MAX_STDIN_VALUE + 1);
        if (v.length > MAX_STDIN_VALUE) {
            throw new ParameterException(spec.commandLine(), "the value on standard input is larger than "
                    + MAX_STDIN_VALUE + " bytes; a Strata value is at most the server's max-value-size (16 MiB by default)");
        }
        return v;
    }

    @Override
    public Integer call() throws IOException {
        byte[] v = value != null ? value.getBytes(StandardCharsets.UTF_8) : readValue();
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        try (StrataClient c = client.connect()) {
            PutResult r = prevKv ? c.putAndGetPrevious(k, v) : c.put(k, v);
            PrintWriter out = spec.commandLine().getOut();
            if (client.json()) {
                ObjectNode n = Json.object().put("revision", r.revision());
                if (r.previous() != null) {
                    n.set("prev_kv", Json.kv(r.previous()));
                }
                Json.print(out, n);
            } else {
                out.println("OK");
                if (r.previous() != null) {
                    Text.kv(out, r.previous(), false);
                }
            }
        }
        return ExitCode.OK;
    }
}
