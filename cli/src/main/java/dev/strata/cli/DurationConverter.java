package dev.strata.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as people write them: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}. */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern FORMAT = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        Matcher m = FORMAT.matcher(value.trim());
        if (!m.matches()) {
            throw new TypeConversionException("'" + value + "' is not a duration; write a whole number with ms, s, m or h, "
                    + "e.g. 500ms or 30s");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
        if (d.isZero()) {
            throw new TypeConversionException("a duration must be positive, got '" + value + "'");
        }
        return d;
    }
}
