package dev.strata.it.history;

import java.util.List;

/**
 * What {@link SerializableReadChecker} found.
 *
 * @param readsChecked the {@code OK} serializable reads in the history
 * @param anomalies    every broken guarantee found, ordered by kind, then by when the read was invoked
 */
public record SerializableReadResult(int readsChecked, List<SerializableAnomaly> anomalies) {
    /** The report lists this many anomalies in full; the result holds them all. */
    static final int ANOMALIES_REPORTED = 50;

    public SerializableReadResult {
        anomalies = List.copyOf(anomalies);
    }

    /** Whether no anomaly was found. */
    public boolean clean() {
        return anomalies.isEmpty();
    }

    /** A summary line, then each anomaly's report, for people. */
    public String report() {
        StringBuilder out = new StringBuilder()
                .append("serializable reads: ").append(clean() ? "OK" : "ANOMALIES").append(" (")
                .append(readsChecked).append(" reads checked, ").append(anomalies.size()).append(" anomalies)\n");
        anomalies.stream().limit(ANOMALIES_REPORTED).forEach(a -> out.append(a.report()));
        if (anomalies.size() > ANOMALIES_REPORTED) {
            out.append("... and ").append(anomalies.size() - ANOMALIES_REPORTED).append(" more\n");
        }
        return out.toString();
    }
}
