package dev.strata.it.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CheckHistoryTest {
    private static final RunInfo RUN = new RunInfo(7, List.of("partition"), 3, Instant.EPOCH, Duration.ofSeconds(1), List.of());

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void cleanHistoryExitsZero() throws IOException {
        HistoryBuilder h = new HistoryBuilder();
        h.put(1, "k", "a", 0, 10);
        h.get(2, "k", 20, 30, "a");
        h.serializableGet(2, 1, "k", 40, 50, "a", 1, 1);

        assertThat(run(save(h.ops()))).isEqualTo(CheckHistory.CLEAN);
        assertThat(out.toString())
                .contains("seed 7, 3 nodes, nemeses [partition]", "3 operations, 0 fault events")
                .contains("linearizability: LINEARIZABLE (1 keys checked, 0 not linearizable, 0 undecided)")
                .contains("serializable reads: OK (1 reads checked, 0 anomalies)");
    }

    @Test
    void staleReadExitsOneWithTheReport() throws IOException {
        HistoryBuilder h = new HistoryBuilder();
        h.put(1, "k", "a", 0, 10);
        h.put(1, "k", "b", 20, 30);
        h.get(2, "k", 40, 50, "a");

        assertThat(run(save(h.ops()))).isEqualTo(CheckHistory.ANOMALIES);
        assertThat(out.toString()).contains("key \"k\" is not linearizable; a minimal sub-history, 3 of its 3 operations");
    }

    @Test
    void serializableAnomalyAloneExitsOne() throws IOException {
        HistoryBuilder h = new HistoryBuilder();
        h.serializableGet(2, 1, "k", 40, 50, "ghost", 1, 1);

        assertThat(run(save(h.ops()))).isEqualTo(CheckHistory.ANOMALIES);
        assertThat(out.toString()).contains("UNWRITTEN_VALUE (node 1, key \"k\")");
    }

    @Test
    void exhaustedBudgetExitsThree() throws IOException {
        HistoryBuilder h = new HistoryBuilder();
        for (int i = 0; i < 10; i++) {
            h.put(i, "k", "v" + i, 0, 100);
        }
        h.get(1, "k", 200, 210, "v3");

        assertThat(run(save(h.ops()).toString(), "--steps-per-key", "5")).isEqualTo(CheckHistory.UNDECIDED);
        assertThat(out.toString()).contains("key \"k\" is undecided");
    }

    @Test
    void missingFileIsAUsageError() {
        assertThat(run(dir.resolve("absent.json").toString())).isEqualTo(CheckHistory.USAGE);
        assertThat(err.toString()).startsWith("check-history: ").contains("absent.json");
    }

    @Test
    void badBudgetIsAUsageError() throws IOException {
        assertThat(run(save(List.of()).toString(), "--steps-per-key", "0")).isEqualTo(CheckHistory.USAGE);
        assertThat(err.toString()).contains("stepsPerKey must be positive: 0");
    }

    @Test
    void missingArgumentIsAUsageError() {
        assertThat(run()).isEqualTo(CheckHistory.USAGE);
        assertThat(err.toString()).contains("Missing required parameter: 'FILE'");
    }

    private Path save(List<Operation> ops) throws IOException {
        Path file = dir.resolve("history.json");
        HistoryFile.write(file, RUN, ops);
        assertThat(Files.exists(file)).isTrue();
        return file;
    }

    private int run(Path file) {
        return run(file.toString());
    }

    private int run(String... args) {
        return CheckHistory.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }
}
