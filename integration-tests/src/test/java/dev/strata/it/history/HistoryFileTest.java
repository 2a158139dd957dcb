package dev.strata.it.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HistoryFileTest {
    /** Every kind and outcome, nulls that mean "absent", a range result, non-ASCII text. */
    private static final List<Operation> OPERATIONS = golden();
    private static final RunInfo RUN = new RunInfo(-42, List.of("partition", "kill"), 3,
            Instant.parse("2026-11-21T10:15:30.123456789Z"), Duration.ofSeconds(60, 5),
            List.of(new FaultEvent(1_000_000, "partition {n1} | {n2,n3}"), new FaultEvent(2_000_000, "heal")));

    @TempDir
    Path dir;

    @Test
    void roundTripKeepsEveryField() throws IOException {
        Path file = dir.resolve("history.json");

        HistoryFile.write(file, RUN, OPERATIONS);
        RunHistory read = HistoryFile.read(file);

        assertThat(read.info()).isEqualTo(RUN);
        assertThat(read.operations()).isEqualTo(OPERATIONS);
    }

    @Test
    void fileMatchesTheGoldenOne() throws IOException {
        Path file = dir.resolve("history.json");

        HistoryFile.write(file, RUN, OPERATIONS);

        assertThat(Files.readString(file)).isEqualTo(resource("history/golden-v1.json"));
    }

    @Test
    void goldenFileReads() throws IOException {
        Path file = dir.resolve("golden.json");
        Files.writeString(file, resource("history/golden-v1.json"));

        assertThat(HistoryFile.read(file)).isEqualTo(new RunHistory(RUN, OPERATIONS));
    }

    @Test
    void writeReplacesAnExistingFileAndLeavesNoTemporary() throws IOException {
        Path file = dir.resolve("history.json");
        Files.writeString(file, "old contents");

        HistoryFile.write(file, RUN, List.of());

        assertThat(HistoryFile.read(file).operations()).isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void unknownKindNamesTheOperation() throws IOException {
        Path file = dir.resolve("history.json");
        HistoryFile.write(file, RUN, OPERATIONS);
        Files.writeString(file, Files.readString(file).replaceFirst("\"kind\":\"DELETE\"", "\"kind\":\"ERASE\""));

        assertThatThrownBy(() -> HistoryFile.read(file))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessage(file + ": operations[2].kind: unknown OpKind \"ERASE\"");
    }

    @Test
    void inconsistentOperationNamesIt() throws IOException {
        Path file = dir.resolve("history.json");
        HistoryFile.write(file, RUN, OPERATIONS);
        Files.writeString(file, Files.readString(file).replaceFirst("\"range_end\":\"b\"", "\"range_end\":null"));

        assertThatThrownBy(() -> HistoryFile.read(file))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessage(file + ": operations[5]: operation 6: a RANGE needs rangeEnd");
    }

    @Test
    void otherJsonIsNotAHistory() throws IOException {
        Path file = dir.resolve("other.json");
        Files.writeString(file, "{\"kvs\": []}");

        assertThatThrownBy(() -> HistoryFile.read(file))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessageContaining("not a history file");
    }

    @Test
    void truncatedFileIsNotJson() throws IOException {
        Path file = dir.resolve("history.json");
        HistoryFile.write(file, RUN, OPERATIONS);
        String text = Files.readString(file);
        Files.writeString(file, text.substring(0, text.length() / 2));

        assertThatThrownBy(() -> HistoryFile.read(file))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessageStartingWith(file + ": not JSON");
    }

    @Test
    void newerVersionIsRefused() throws IOException {
        Path file = dir.resolve("history.json");
        HistoryFile.write(file, RUN, List.of());
        Files.writeString(file, Files.readString(file).replace("\"version\":1", "\"version\":2"));

        assertThatThrownBy(() -> HistoryFile.read(file))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessage(file + ": version: unsupported version 2 (this reader knows 1)");
    }

    private static List<Operation> golden() {
        HistoryBuilder h = new HistoryBuilder();
        h.put(1, "k", "a", 1, 2);
        h.cas(2, "k", null, "b", 3, 4, false);
        h.delete(1, "k", 5, 6);
        h.putUnknown(3, "k", "L:c3-17:70000", 7, 8);
        h.putFailed(3, "ключ", "значение", 9, 10);
        h.range(2, "a", "b", 11, 12, Map.of("a1", "x", "a2", "y"));
        h.serializableGet(1, 2, "k", 13, 14, "a", 1, 1);
        h.get(1, "k", 15, 16, null);
        h.casUnknown(2, "k", "a", "c", 17, 18);
        return h.ops();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = HistoryFileTest.class.getClassLoader().getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
