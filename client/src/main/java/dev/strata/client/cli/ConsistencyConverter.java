package dev.strata.client.cli;

import dev.strata.client.Consistency;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/** Reads a read consistency as people write it: {@code linearizable} or {@code serializable}, any case. */
public final class ConsistencyConverter implements ITypeConverter<Consistency> {
    @Override
    public Consistency convert(String value) {
        try {
            return Consistency.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + value + "' is not a consistency; write linearizable or serializable");
        }
    }

    /** The values, in lower case, for help and completion. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Consistency.values()).map(c -> c.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }
}
