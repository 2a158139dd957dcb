package dev.strata.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads counts as people write them: {@code 20000}, {@code 20k}, {@code 1M} (decimal: k = 1,000, M = 1,000,000). */
final class CountConverter implements ITypeConverter<Long> {
    private static final Pattern FORMAT = Pattern.compile("(\\d+)([kKmM]?)");

    @Override
    public Long convert(String value) {
        Matcher m = FORMAT.matcher(value.trim());
        if (!m.matches()) {
            throw new TypeConversionException("'" + value + "' is not a count; write a whole number, optionally with k or M, "
                    + "e.g. 20000, 20k or 1M");
        }
        long unit = switch (m.group(2)) {
            case "k", "K" -> 1_000;
            case "m", "M" -> 1_000_000;
            default -> 1;
        };
        try {
            return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is too large a count");
        }
    }
}
