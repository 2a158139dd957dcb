package dev.strata.cli;

import dev.strata.client.KeyRange;
import dev.strata.client.Op;
import dev.strata.client.Txn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A transaction written as etcdctl's {@code txn} reads it: compares, a blank line, the
 * operations to run when they all hold, a blank line, the operations to run otherwise.
 *
 * <pre>
 * mod("config") = 42
 * val("owner") != "me"
 *
 * put config "new"
 * get owner
 *
 * get config
 * </pre>
 *
 * Compares are {@code TARGET("KEY") OP OPERAND} with TARGET {@code val}/{@code value},
 * {@code ver}/{@code version}, {@code mod}, {@code create}; OP {@code =}, {@code !=}, {@code <},
 * {@code >}; the operand a quoted string for values and a number for the others. Operations are
 * {@code put KEY VALUE}, {@code get KEY [RANGE_END]} and {@code del KEY [RANGE_END]}, with
 * {@code --prefix} after the key to take it as a prefix.
 */
final class TxnScript {
    private static final Pattern COMPARE = Pattern.compile(
            "(\\w+)\\(\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*\\)\\s*(=|!=|<|>)\\s*(.+?)\\s*");

    private final List<Consumer<Txn>> compares = new ArrayList<>();
    private final List<Op> then = new ArrayList<>();
    private final List<Op> orElse = new ArrayList<>();

    /**
     * Parses the three sections; lines after the third blank-separated section are refused.
     *
     * @throws IllegalArgumentException naming the line that is wrong and why
     */
    static TxnScript parse(List<String> lines) {
        TxnScript script = new TxnScript();
        int section = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty()) {
                section++;
                continue;
            }
            try {
                switch (section) {
                    case 0 -> script.compares.add(compare(line));
                    case 1 -> script.then.add(op(Words.split(line)));
                    case 2 -> script.orElse.add(op(Words.split(line)));
                    default -> throw new IllegalArgumentException("a txn has three sections (compares, then, else) "
                            + "separated by blank lines; this is a fourth");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("txn line " + (n + 1) + " (" + line + "): " + e.getMessage(), e);
            }
        }
        return script;
    }

    /** Adds the compares and both branches to {@code txn}. */
    Txn applyTo(Txn txn) {
        compares.forEach(c -> c.accept(txn));
        return txn.then(then.toArray(Op[]::new)).orElse(orElse.toArray(Op[]::new));
    }

    /** Parses and checks one compare line; the result adds it to a txn. */
    private static Consumer<Txn> compare(String line) {
        Matcher m = COMPARE.matcher(line);
        if (!m.matches()) {
            throw new IllegalArgumentException("a compare looks like mod(\"key\") > 5 or val(\"key\") = \"v\"");
        }
        String target = m.group(1);
        byte[] key = Words.split("\"" + m.group(2) + "\"").get(0).getBytes(StandardCharsets.UTF_8);
        String op = m.group(3);
        String operand = m.group(4);
        return switch (target) {
            case "val", "value" -> {
                List<String> words = Words.split(operand);
                if (words.size() != 1 || !operand.startsWith("\"")) {
                    throw new IllegalArgumentException("compare a value with a quoted string: " + operand);
                }
                byte[] v = words.get(0).getBytes(StandardCharsets.UTF_8);
                yield txn -> {
                    Txn.ValueCompare vc = txn.ifValue(key);
                    switch (op) {
                        case "=" -> vc.equalTo(v);
                        case "!=" -> vc.notEqualTo(v);
                        case "<" -> vc.lessThan(v);
                        default -> vc.greaterThan(v);
                    }
                };
            }
            case "ver", "version" -> number(target, op, operand, txn -> txn.ifVersion(key));
            case "mod" -> number(target, op, operand, txn -> txn.ifModRevision(key));
            case "create" -> number(target, op, operand, txn -> txn.ifCreateRevision(key));
            default -> throw new IllegalArgumentException("unknown compare target '" + target
                    + "'; use val, ver, mod or create");
        };
    }

    private static Consumer<Txn> number(String target, String op, String operand,
                                        Function<Txn, Txn.NumberCompare> field) {
        long n;
        try {
            n = Long.parseLong(operand.replace("\"", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(target + " compares with a number, not " + operand);
        }
        return txn -> {
            Txn.NumberCompare nc = field.apply(txn);
            switch (op) {
                case "=" -> nc.equalTo(n);
                case "!=" -> nc.notEqualTo(n);
                case "<" -> nc.lessThan(n);
                default -> nc.greaterThan(n);
            }
        };
    }

    private static Op op(List<String> words) {
        String verb = words.get(0);
        List<String> args = words.subList(1, words.size());
        return switch (verb) {
            case "put" -> {
                if (args.size() != 2) {
                    throw new IllegalArgumentException("put takes KEY VALUE");
                }
                yield Op.put(args.get(0), args.get(1));
            }
            case "get" -> Op.range(range(args), 0);
            case "del" -> Op.delete(range(args));
            default -> throw new IllegalArgumentException("unknown operation '" + verb + "'; use put, get or del");
        };
    }

    private static KeyRange range(List<String> args) {
        if (args.size() == 2 && args.get(1).equals("--prefix")) {
            return KeyRange.prefix(args.get(0));
        }
        if (args.size() == 2) {
            return KeyRange.between(args.get(0), args.get(1));
        }
        if (args.size() == 1) {
            return KeyRange.key(args.get(0));
        }
        throw new IllegalArgumentException("takes KEY [RANGE_END] or KEY --prefix");
    }
}
