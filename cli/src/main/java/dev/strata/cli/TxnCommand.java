package dev.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.client.DeleteResult;
import dev.strata.client.OpResult;
import dev.strata.client.PutResult;
import dev.strata.client.RangeResult;
import dev.strata.client.StrataClient;
import dev.strata.client.TxnResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code strata txn}: a compare-and-set transaction read from standard input. */
@Command(name = "txn", mixinStandardHelpOptions = true,
        description = {"Runs a transaction read from standard input, as etcdctl txn does: compares, a blank line, the "
                + "operations to run if every compare holds, a blank line, the operations to run otherwise.",
                "Compares: val(\"k\") = \"v\", ver(\"k\") > 2, mod(\"k\") = 17, create(\"k\") = 0 (absent), with = != < >.",
                "Operations: put KEY VALUE, get KEY [RANGE_END | --prefix], del KEY [RANGE_END | --prefix].",
                "Prints SUCCESS or FAILURE (which branch ran; both exit 0), then each operation's result.",
                "Example: printf 'ver(\"lock\") = 0\\n\\nput lock me\\n\\nget lock\\n' | strata txn"})
final class TxnCommand implements Callable<Integer> {
    private static final int SECTIONS = 3;

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = {"-i", "--interactive"}, description = "prompt for each section; a blank line ends it")
    boolean interactive;

    private final InputStream stdin;

    TxnCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public Integer call() throws IOException {
        TxnScript script;
        try {
            script = TxnScript.parse(readSections());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        try (StrataClient c = client.connect()) {
            print(spec.commandLine().getOut(), script.applyTo(c.txn()).commit());
        }
        return ExitCode.OK;
    }

    private List<String> readSections() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        PrintWriter err = spec.commandLine().getErr();
        String[] prompts = {"compares:", "success requests (get, put, del):", "failure requests (get, put, del):"};
        List<String> lines = new ArrayList<>();
        int blanks = 0;
        prompt(err, prompts[0]);
        for (String line; (line = in.readLine()) != null; ) {
            lines.add(line);
            if (line.isBlank()) {
                blanks++;
                if (interactive && blanks == SECTIONS) {
                    break;
                }
                if (blanks < SECTIONS) {
                    prompt(err, prompts[blanks]);
                }
            }
        }
        return lines;
    }

    private void prompt(PrintWriter err, String text) {
        if (interactive) {
            err.println(text);
            err.flush();
        }
    }

    private void print(PrintWriter out, TxnResult r) {
        if (client.json()) {
            ArrayNode responses = Json.MAPPER.createArrayNode();
            r.results().forEach(op -> responses.add(json(op)));
            ObjectNode n = Json.object().put("succeeded", r.succeeded()).put("revision", r.revision());
            n.set("responses", responses);
            Json.print(out, n);
            return;
        }
        out.println(r.succeeded() ? "SUCCESS" : "FAILURE");
        for (OpResult op : r.results()) {
            out.println();
            switch (op) {
                case PutResult p -> out.println("OK");
                case DeleteResult d -> out.println(d.deleted());
                case RangeResult g -> g.kvs().forEach(kv -> Text.kv(out, kv, false));
            }
        }
    }

    private static ObjectNode json(OpResult op) {
        return switch (op) {
            case PutResult p -> Json.object().set("put", Json.object().put("revision", p.revision()));
            case DeleteResult d -> Json.object().set("delete", Json.object().put("deleted", d.deleted()));
            case RangeResult g -> Json.object().set("range", Json.object().set("kvs", Json.kvs(g.kvs())));
        };
    }
}
