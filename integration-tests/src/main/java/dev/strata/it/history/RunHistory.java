package dev.strata.it.history;

import java.util.List;
import java.util.Objects;

/** A run and the operations its clients performed, as {@link HistoryFile} stores them. */
public record RunHistory(RunInfo info, List<Operation> operations) {
    public RunHistory {
        Objects.requireNonNull(info, "info");
        operations = List.copyOf(operations);
    }
}
