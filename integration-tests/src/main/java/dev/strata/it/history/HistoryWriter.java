package dev.strata.it.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

import static dev.strata.it.history.HistoryFormat.*;

/**
 * Writes a history file: the run on one line, then one operation per line (see
 * {@code integration-tests/docs/history-format.md}). Thread-safe: it holds no state.
 */
final class HistoryWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HistoryWriter() {}

    /**
     * Writes {@code info} and {@code ops} to {@code file}, replacing it: to a temporary file beside
     * it first, renamed over it when complete, so {@code file} is never seen half-written. There is
     * no fsync: the file must survive a crash of the harness, not of the machine.
     */
    static void write(Path file, RunInfo info, List<Operation> ops) throws IOException {
        Path target = file.toAbsolutePath();
        Path temporary = target.resolveSibling("." + target.getFileName() + ".tmp");
        try {
            try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                out.write("{\"" + FORMAT + "\":\"" + FORMAT_NAME + "\",\"" + FORMAT_VERSION + "\":" + VERSION + ",\n");
                out.write("\"" + RUN + "\":" + JSON.writeValueAsString(run(info)) + ",\n");
                out.write("\"" + OPERATIONS + "\":[\n");
                for (int i = 0; i < ops.size(); i++) {
                    out.write(JSON.writeValueAsString(operation(ops.get(i))));
                    out.write(i + 1 < ops.size() ? ",\n" : "\n");
                }
                out.write("]}\n");
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    private static ObjectNode run(RunInfo info) {
        ObjectNode run = JSON.createObjectNode();
        run.put(SEED, info.seed());
        ArrayNode nemeses = run.putArray(NEMESES);
        info.nemeses().forEach(nemeses::add);
        run.put(NODE_COUNT, info.nodeCount());
        run.put(STARTED_EPOCH_NANOS, Math.addExact(
                Math.multiplyExact(info.started().getEpochSecond(), 1_000_000_000L), info.started().getNano()));
        run.put(DURATION_NANOS, info.duration().toNanos());
        ArrayNode events = run.putArray(FAULT_EVENTS);
        for (FaultEvent event : info.faultEvents()) {
            events.addObject().put(AT_NANOS, event.atNanos()).put(DESCRIPTION, event.description());
        }
        return run;
    }

    private static ObjectNode operation(Operation op) {
        ObjectNode node = JSON.createObjectNode()
                .put(ID, op.id())
                .put(CLIENT, op.client())
                .put(KIND, op.kind().name())
                .put(KEY, op.key())
                .put(RANGE_END, op.rangeEnd())
                .put(VALUE, op.value())
                .put(EXPECTED, op.expected())
                .put(CONSISTENCY, op.consistency() == null ? null : op.consistency().name())
                .put(NODE, op.node())
                .put(INVOKED_NANOS, op.invokedNanos())
                .put(COMPLETED_NANOS, op.completedNanos())
                .put(OUTCOME, op.outcome().name())
                .put(READ_VALUE, op.readValue());
        if (op.rangeResult() == null) {
            node.putNull(RANGE_RESULT);
        } else {
            ObjectNode result = node.putObject(RANGE_RESULT);
            for (Map.Entry<String, String> kv : op.rangeResult().entrySet()) {
                result.put(kv.getKey(), kv.getValue());
            }
        }
        return node.put(CAS_SUCCEEDED, op.casSucceeded())
                .put(HEADER_REVISION, op.headerRevision())
                .put(MOD_REVISION, op.modRevision())
                .put(ERROR, op.error());
    }
}
