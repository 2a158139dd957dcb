package dev.strata.cli;

import dev.strata.client.KeyValue;

import java.io.PrintWriter;
import java.util.List;

/**
 * The default, human output: as etcdctl prints, a key on one line and its value on the next, so
 * a value with no newline reads back exactly with {@code --print-value-only}.
 */
final class Text {
    private Text() {}

    static void kv(PrintWriter out, KeyValue kv, boolean valueOnly) {
        if (!valueOnly) {
            out.println(kv.keyUtf8());
        }
        out.println(kv.valueUtf8());
    }

    /** Rows under a header, each column as wide as its widest cell. */
    static void table(PrintWriter out, List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
            for (List<String> row : rows) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        row(out, header, width);
        rows.forEach(r -> row(out, r, width));
    }

    private static void row(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            line.append(i == cells.size() - 1 ? cells.get(i) : String.format("%-" + (width[i] + 2) + "s", cells.get(i)));
        }
        out.println(line);
    }
}
