package dev.strata.it.history;

import java.util.Objects;

/**
 * Something the harness's nemesis did, kept with the history to read a violation against.
 *
 * @param atNanos     {@link System#nanoTime()} of the harness JVM, the clock of {@link Operation}'s times
 * @param description what was done, free-form ({@code "partition {n1} | {n2,n3}"}, {@code "kill n2"})
 */
public record FaultEvent(long atNanos, String description) {
    public FaultEvent {
        Objects.requireNonNull(description, "description");
    }
}
