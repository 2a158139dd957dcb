package dev.strata.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line of {@code strata shell} or {@code strata txn} input into words, as a shell
 * would: spaces separate words, double quotes keep spaces in one word, and inside quotes
 * {@code \"}, {@code \\}, {@code \n} and {@code \t} are escapes.
 */
final class Words {
    private Words() {}

    /**
     * @throws IllegalArgumentException when a quote is not closed or an escape is unknown
     */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"') {
                    quoted = false;
                } else if (ch == '\\') {
                    if (++i == line.length()) {
                        throw new IllegalArgumentException("a line cannot end inside an escape: " + line);
                    }
                    word.append(unescape(line.charAt(i)));
                } else {
                    word.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
                inWord = true;
            } else if (Character.isWhitespace(ch)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(ch);
                inWord = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unclosed quote in: " + line);
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Where the first word of {@code line} (which must not start with a space) ends: a space or the end. */
    static int endOfFirstWord(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted && ch == '\\') {
                i++;
            } else if (ch == '"') {
                quoted = !quoted;
            } else if (!quoted && Character.isWhitespace(ch)) {
                return i;
            }
        }
        return line.length();
    }

    private static char unescape(char ch) {
        return switch (ch) {
            case '"', '\\' -> ch;
            case 'n' -> '\n';
            case 't' -> '\t';
            default -> throw new IllegalArgumentException("unknown escape \\" + ch + " (use \\\" \\\\ \\n or \\t)");
        };
    }
}
