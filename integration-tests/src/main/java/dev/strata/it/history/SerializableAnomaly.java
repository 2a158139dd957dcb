package dev.strata.it.history;

import java.util.List;

/**
 * A serializable read that broke a guarantee stale reads still keep, with the operations that show it.
 *
 * @param kind        which guarantee
 * @param key         the key concerned; {@code null} for a header revision, which is the node's
 * @param node        the node that served the read
 * @param operations  the read last, preceded by what it contradicts (an earlier read, the write)
 * @param description what went wrong, in a sentence
 */
public record SerializableAnomaly(Kind kind, String key, long node, List<Operation> operations, String description) {

    /** The guarantees of {@link SerializableReadChecker}. */
    public enum Kind {
        /** A value that no write which may have taken effect produced. */
        UNWRITTEN_VALUE,
        /** A value whose every write was invoked after the read completed. */
        FUTURE_READ,
        /** A node answered with a smaller header revision than an answer it gave before. */
        REVISION_REGRESSED,
        /** A node returned a key with a smaller mod revision than it returned before. */
        MOD_REVISION_REGRESSED,
        /** The mod revision returned with a value is not the revision its write was acknowledged with. */
        MOD_REVISION_MISMATCH
    }

    public SerializableAnomaly {
        operations = List.copyOf(operations);
    }

    /** The kind, node, key and description, then the operations one a line, in ms from the first. */
    public String report() {
        String where = "node " + node + (key == null ? "" : ", key " + OperationText.quote(key));
        return kind + " (" + where + "): " + description + "\n"
                + OperationText.block(operations, OperationText.origin(operations), key);
    }
}
