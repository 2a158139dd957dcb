package dev.strata.it.history;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.strata.it.history.HistoryFormat.*;

/**
 * Reads a history file (see {@code integration-tests/docs/history-format.md}), rejecting anything
 * {@link HistoryWriter} would not have written with a {@link HistoryFormatException} that says where.
 * Thread-safe: each read has its own reader.
 */
final class HistoryReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    private HistoryReader(Path file) {
        this.file = file;
    }

    /** The run and operations stored in {@code file}. */
    static RunHistory read(Path file) throws IOException {
        return new HistoryReader(file).read();
    }

    private RunHistory read() throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new HistoryFormatException(file, "not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new HistoryFormatException(file, "", "not a JSON object");
        }
        if (!FORMAT_NAME.equals(root.path(FORMAT).asText(null))) {
            throw new HistoryFormatException(file, FORMAT, "not a history file (expected \"" + FORMAT_NAME + "\")");
        }
        long version = number(root, FORMAT_VERSION, "");
        if (version != VERSION) {
            throw new HistoryFormatException(file, FORMAT_VERSION, "unsupported version " + version + " (this reader knows " + VERSION + ")");
        }
        RunInfo info = run(object(root, RUN, ""));
        JsonNode array = root.get(OPERATIONS);
        if (array == null || !array.isArray()) {
            throw new HistoryFormatException(file, OPERATIONS, "missing or not an array");
        }
        List<Operation> ops = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            ops.add(operation(array.get(i), OPERATIONS + "[" + i + "]"));
        }
        return new RunHistory(info, ops);
    }

    private RunInfo run(JsonNode run) throws HistoryFormatException {
        List<String> nemeses = new ArrayList<>();
        for (JsonNode name : array(run, NEMESES, RUN)) {
            nemeses.add(name.asText());
        }
        List<FaultEvent> events = new ArrayList<>();
        int i = 0;
        for (JsonNode event : array(run, FAULT_EVENTS, RUN)) {
            String where = RUN + "." + FAULT_EVENTS + "[" + i++ + "]";
            events.add(new FaultEvent(number(event, AT_NANOS, where), requiredText(event, DESCRIPTION, where)));
        }
        return new RunInfo(number(run, SEED, RUN), nemeses, (int) number(run, NODE_COUNT, RUN),
                Instant.ofEpochSecond(0, number(run, STARTED_EPOCH_NANOS, RUN)),
                Duration.ofNanos(number(run, DURATION_NANOS, RUN)), events);
    }

    private Operation operation(JsonNode op, String where) throws HistoryFormatException {
        if (!op.isObject()) {
            throw new HistoryFormatException(file, where, "not an object");
        }
        try {
            return new Operation(
                    number(op, ID, where), (int) number(op, CLIENT, where),
                    constant(OpKind.class, requiredText(op, KIND, where), where + "." + KIND),
                    requiredText(op, KEY, where),
                    text(op, RANGE_END, where),
                    text(op, VALUE, where),
                    text(op, EXPECTED, where),
                    op.hasNonNull(CONSISTENCY) ? constant(ReadConsistency.class, text(op, CONSISTENCY, where), where + "." + CONSISTENCY) : null,
                    optionalNumber(op, NODE, where),
                    number(op, INVOKED_NANOS, where), number(op, COMPLETED_NANOS, where),
                    constant(Outcome.class, requiredText(op, OUTCOME, where), where + "." + OUTCOME),
                    text(op, READ_VALUE, where),
                    rangeResult(op, where),
                    bool(op, CAS_SUCCEEDED, where),
                    optionalNumber(op, HEADER_REVISION, where),
                    optionalNumber(op, MOD_REVISION, where),
                    text(op, ERROR, where));
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException(file, where, e.getMessage());
        }
    }

    private Map<String, String> rangeResult(JsonNode op, String where) throws HistoryFormatException {
        JsonNode result = op.get(RANGE_RESULT);
        if (result == null || result.isNull()) {
            return null;
        }
        if (!result.isObject()) {
            throw new HistoryFormatException(file, where + "." + RANGE_RESULT, "not an object");
        }
        Map<String, String> kvs = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> kv : result.properties()) {
            if (!kv.getValue().isTextual()) {
                throw new HistoryFormatException(file, where + "." + RANGE_RESULT + "." + kv.getKey(), "not a string");
            }
            kvs.put(kv.getKey(), kv.getValue().asText());
        }
        return kvs;
    }

    private JsonNode object(JsonNode parent, String field, String where) throws HistoryFormatException {
        JsonNode node = parent.get(field);
        if (node == null || !node.isObject()) {
            throw new HistoryFormatException(file, join(where, field), "missing or not an object");
        }
        return node;
    }

    private JsonNode array(JsonNode parent, String field, String where) throws HistoryFormatException {
        JsonNode node = parent.get(field);
        if (node == null || !node.isArray()) {
            throw new HistoryFormatException(file, join(where, field), "missing or not an array");
        }
        return node;
    }

    private long number(JsonNode parent, String field, String where) throws HistoryFormatException {
        JsonNode node = parent.get(field);
        if (node == null || !node.canConvertToExactIntegral() || !node.canConvertToLong()) {
            throw new HistoryFormatException(file, join(where, field), "missing or not an integer");
        }
        return node.asLong();
    }

    private long optionalNumber(JsonNode parent, String field, String where) throws HistoryFormatException {
        return parent.hasNonNull(field) ? number(parent, field, where) : 0;
    }

    private String requiredText(JsonNode parent, String field, String where) throws HistoryFormatException {
        String text = text(parent, field, where);
        if (text == null) {
            throw new HistoryFormatException(file, join(where, field), "missing");
        }
        return text;
    }

    private String text(JsonNode parent, String field, String where) throws HistoryFormatException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new HistoryFormatException(file, join(where, field), "not a string");
        }
        return node.asText();
    }

    private Boolean bool(JsonNode parent, String field, String where) throws HistoryFormatException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isBoolean()) {
            throw new HistoryFormatException(file, join(where, field), "not a boolean");
        }
        return node.asBoolean();
    }

    private <E extends Enum<E>> E constant(Class<E> type, String name, String where) throws HistoryFormatException {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException(file, where, "unknown " + type.getSimpleName() + " \"" + name + "\"");
        }
    }

    private static String join(String where, String field) {
        return where.isEmpty() ? field : where + "." + field;
    }
}
