package dev.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code strata shell}: one operation per line, typed or piped, over one connection, as the
 * LogKV paper's client tool reads them. A line that fails prints its error and the shell goes
 * on; the exit code says whether any line failed.
 */
@Command(name = "shell", mixinStandardHelpOptions = true,
        description = {"Reads operations from standard input, one per line, and prints each result:",
                "  put KEY VALUE       (VALUE is the rest of the line, or one \"quoted\" word)",
                "  get KEY             (prints the value, or (not found))",
                "  del KEY [RANGE_END]",
                "  range KEY [RANGE_END]  (at most --range-limit keys)",
                "Blank lines and lines starting with # are skipped; exit or quit ends the shell. With -o json each "
                        + "result is one JSON object per line. Exits with 1 when any line failed, else 0."})
final class ShellCommand implements Callable<Integer> {
    private static final String PROMPT = "strata> ";

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = "--range-limit", paramLabel = "N", defaultValue = "100",
            description = "most keys a range line prints, 0 for the server's page limit (default: ${DEFAULT-VALUE})")
    long rangeLimit;

    private final InputStream stdin;
    private final boolean terminal;

    /**
     * @param terminal whether a person types the input, so the shell prompts
     */
    ShellCommand(InputStream stdin, boolean terminal) {
        this.stdin = stdin;
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws IOException {
        if (rangeLimit < 0) {
            throw new ParameterException(spec.commandLine(), "--range-limit must not be negative, got " + rangeLimit);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        int failed = 0;
        try (StrataClient c = client.connect()) {
            prompt(out);
            for (String line; (line = in.readLine()) != null; prompt(out)) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                if (trimmed.equals("exit") || trimmed.equals("quit")) {
                    break;
                }
                try {
                    run(c, trimmed, out);
                } catch (IllegalArgumentException | StrataException e) {
                    failed++;
                    err.println("error: " + trimmed + ": " + e.getMessage());
                    err.flush();
                }
            }
        }
        return failed == 0 ? ExitCode.OK : ExitCode.FAILED;
    }

    private void prompt(PrintWriter out) {
        if (terminal) {
            out.print(PROMPT);
            out.flush();
        }
    }

    private void run(StrataClient c, String line, PrintWriter out) {
        int space = line.indexOf(' ');
        String verb = space < 0 ? line : line.substring(0, space);
        String rest = space < 0 ? "" : line.substring(space + 1).strip();
        switch (verb) {
            case "put" -> put(c, rest, out);
            case "get" -> {
                List<String> args = arguments(rest, 1, 1, "get KEY");
                Optional<KeyValue> kv = c.get(args.get(0));
                if (client.json()) {
                    ObjectNode n = Json.object();
                    n.set("kvs", Json.kvs(kv.stream().toList()));
                    line(out, n);
                } else {
                    out.println(kv.map(KeyValue::valueUtf8).orElse("(not found)"));
                }
            }
            case "del" -> {
                long deleted = c.delete(keys(arguments(rest, 1, 2, "del KEY [RANGE_END]"))).deleted();
                if (client.json()) {
                    line(out, Json.object().put("deleted", deleted));
                } else {
                    out.println(deleted);
                }
            }
            case "range" -> {
                List<KeyValue> kvs = c.rangePage(keys(arguments(rest, 1, 2, "range KEY [RANGE_END]")),
                        (int) Math.min(rangeLimit, Integer.MAX_VALUE)).kvs();
                if (client.json()) {
                    line(out, Json.object().set("kvs", Json.kvs(kvs)));
                } else {
                    kvs.forEach(kv -> out.println(kv.keyUtf8() + " " + kv.valueUtf8()));
                }
            }
            default -> throw new IllegalArgumentException("unknown operation '" + verb + "'; use put, get, del or range");
        }
        out.flush();
    }

    private void put(StrataClient c, String rest, PrintWriter out) {
        int end = Words.endOfFirstWord(rest);
        String valuePart = rest.substring(end).strip();
        if (rest.isEmpty() || valuePart.isEmpty()) {
            throw new IllegalArgumentException("usage: put KEY VALUE");
        }
        String key = single(rest.substring(0, end));
        // A quoted value is one word with escapes; anything else is taken as typed, spaces and all.
        String value = valuePart.startsWith("\"") ? single(valuePart) : valuePart;
        long revision = c.put(key, value).revision();
        if (client.json()) {
            line(out, Json.object().put("revision", revision));
        } else {
            out.println("OK");
        }
    }

    private static String single(String quoted) {
        List<String> words = Words.split(quoted);
        if (words.size() != 1) {
            throw new IllegalArgumentException("a quoted word must stand alone: " + quoted);
        }
        return words.get(0);
    }

    private static List<String> arguments(String rest, int min, int max, String usage) {
        List<String> words = Words.split(rest);
        if (words.size() < min || words.size() > max) {
            throw new IllegalArgumentException("usage: " + usage);
        }
        return words;
    }

    private static KeyRange keys(List<String> words) {
        return words.size() == 1 ? KeyRange.key(words.get(0)) : KeyRange.between(words.get(0), words.get(1));
    }

    /** One JSON object on one line (JSON Lines), so a pipe can read results as they come. */
    private static void line(PrintWriter out, JsonNode n) {
        out.println(n.toString());
    }
}
