package dev.strata.bench.cluster;

import dev.strata.cli.bench.ProcStat;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JitWarmUpTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void quietOnlyBelowAFiftiethOfTheWallClockTime() {
        assertThat(JitWarmUp.quiet(0, 30 * SECOND)).isTrue();
        assertThat(JitWarmUp.quiet(SECOND, 30 * SECOND)).isTrue(); // 3%
        assertThat(JitWarmUp.quiet(3 * SECOND / 2, 30 * SECOND)).isFalse(); // exactly 5%
        // What a cold cluster's compilers did in 20 s of puts on a 2-core machine: busy.
        assertThat(JitWarmUp.quiet(9 * SECOND, 20 * SECOND)).isFalse();
        assertThatThrownBy(() -> JitWarmUp.quiet(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void recognisesHotSpotsCompilerThreadsByTheirCutNames() {
        assertThat(JitWarmUp.isCompilerThread("C2 CompilerThre\n")).isTrue();
        assertThat(JitWarmUp.isCompilerThread("C1 CompilerThre")).isTrue();
        assertThat(JitWarmUp.isCompilerThread("grpc-default-ex")).isFalse();
        assertThat(JitWarmUp.isCompilerThread("GC Thread#0")).isFalse();
    }

    @Test
    void readsTheCompilerThreadsOfThisJvm() throws Exception {
        // This test's own JVM compiles as it runs; fresh code to compile shows up within a few
        // rounds as at least one clock tick of compiler time.
        List<Long> self = List.of(ProcessHandle.current().pid());
        Map<Path, Long> start = JitWarmUp.compilerTicks(self);
        assertThat(start).isNotEmpty();
        long compiled = 0;
        for (int round = 0; round < 1_000 && compiled == 0; round++) {
            keepTheJitBusy(round);
            compiled = JitWarmUp.usedBetween(Map.of(), JitWarmUp.compilerTicks(self));
        }
        assertThat(compiled).isPositive();
        assertThat(JitWarmUp.usedBetween(start, JitWarmUp.compilerTicks(self))).isGreaterThanOrEqualTo(0);
        assertThatThrownBy(() -> JitWarmUp.compilerTicks(List.of(Long.MAX_VALUE)))
                .isInstanceOf(java.io.IOException.class);
    }

    @Test
    void countsOnlyWhatEachThreadUsedBetweenTheReadings() {
        Path c1 = Path.of("/proc/1/task/11");
        Path c2 = Path.of("/proc/1/task/12");
        Path started = Path.of("/proc/1/task/13");
        long tick = 1_000_000_000L / ProcStat.CLOCK_TICKS;
        // c2 ended in between: its ticks must not count against the others.
        assertThat(JitWarmUp.usedBetween(Map.of(c1, 100L, c2, 5_000L), Map.of(c1, 103L, started, 2L)))
                .isEqualTo(5 * tick);
        assertThat(JitWarmUp.anyEnded(Map.of(c1, 100L, c2, 5_000L), Map.of(c1, 103L, started, 2L))).isTrue();
        assertThat(JitWarmUp.anyEnded(Map.of(c1, 100L), Map.of(c1, 103L, started, 2L))).isFalse();
    }

    private static long sink;

    private static void keepTheJitBusy(int round) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            counts.merge(Integer.toString((i * 31 + round) % 997), i, Integer::sum);
        }
        sink += counts.values().stream().mapToLong(Integer::longValue).sum();
    }
}
