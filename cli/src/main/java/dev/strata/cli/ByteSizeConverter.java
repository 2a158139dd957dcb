package dev.strata.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a byte size flag: a plain number or one with a binary unit, such as {@code 4096}, {@code 16k}, {@code 64MiB}, {@code 1g}. */
public final class ByteSizeConverter implements ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(?:([kmgt])(?:i?b)?|b)?");

    @Override
    public Long convert(String value) {
        Matcher m = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException("'" + value + "' is not a byte size (examples: 4096, 16k, 64MiB, 1g)");
        }
        int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 40;
        };
        try {
            long number = Long.parseLong(m.group(1));
            if (number > Long.MAX_VALUE >> shift) {
                throw new TypeConversionException("'" + value + "' is too large");
            }
            return number << shift;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is too large");
        }
    }
}
