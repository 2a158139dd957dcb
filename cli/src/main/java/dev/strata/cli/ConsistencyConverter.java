package dev.strata.cli;

import dev.strata.client.Consistency;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/** Reads a read's consistency as etcdctl spells it ({@code l}, {@code s}) or in full, any case. */
final class ConsistencyConverter implements ITypeConverter<Consistency> {
    @Override
    public Consistency convert(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "l", "linearizable" -> Consistency.LINEARIZABLE;
            case "s", "serializable" -> Consistency.SERIALIZABLE;
            default -> throw new TypeConversionException("'" + value + "' is not a consistency; use linearizable (l) "
                    + "or serializable (s)");
        };
    }

    /** The values, in lower case, for help and completion. */
    static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Consistency.values()).map(c -> c.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }
}
