package dev.strata.client.cli;

import dev.strata.client.Consistency;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Locale;

/** Reads a read's consistency as etcdctl spells it ({@code l}, {@code s}) or in full. */
final class ConsistencyConverter implements ITypeConverter<Consistency> {
    @Override
    public Consistency convert(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "l", "linearizable" -> Consistency.LINEARIZABLE;
            case "s", "serializable" -> Consistency.SERIALIZABLE;
            default -> throw new TypeConversionException("'" + value + "' is not a consistency; use linearizable (l) "
                    + "or serializable (s)");
        };
    }
}
