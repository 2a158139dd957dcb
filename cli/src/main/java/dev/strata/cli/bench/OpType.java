package dev.strata.cli.bench;

/** The operations of the YCSB core workloads, each measured apart. */
enum OpType {
    /** A get of one key. */
    READ("read"),
    /** A put over a key that exists. */
    UPDATE("update"),
    /** A put of a key not yet written. */
    INSERT("insert"),
    /** A range read of 1 to --max-scan-length keys from a chosen key on. */
    SCAN("scan"),
    /** A get and then a put of the same key, timed as one operation (YCSB's workload F). */
    READ_MODIFY_WRITE("read-modify-write");

    private final String label;

    OpType(String label) {
        this.label = label;
    }

    /** The name in reports. */
    String label() {
        return label;
    }
}
