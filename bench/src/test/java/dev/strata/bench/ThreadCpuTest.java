package dev.strata.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadCpuTest {
    @Test
    void namesG1sThreadsAsTheCollectors() {
        for (String name : new String[] {"GC Thread#0", "G1 Main Marker", "G1 Conc#0", "G1 Refine#0", "G1 Service"}) {
            assertThat(ThreadCpu.isCollectorThread(name)).as(name).isTrue();
        }
        for (String name : new String[] {"main", "C2 CompilerThre", "1-impl-thread1", "grpc-default-ex"}) {
            assertThat(ThreadCpu.isCollectorThread(name)).as(name).isFalse();
        }
    }

    @Test
    void splitsThisProcesssCpuWithinItsTotal() throws IOException {
        long sink = 0;
        for (int i = 0; i < 50_000_000; i++) {
            sink += Integer.toString(i).length(); // some CPU of this thread's own, so the total is above a tick
        }
        ThreadCpu cpu = ThreadCpu.of(ProcessHandle.current().pid());
        assertThat(sink).isPositive();
        assertThat(cpu.totalSeconds()).isPositive();
        assertThat(cpu.compilerSeconds()).isGreaterThanOrEqualTo(0);
        assertThat(cpu.gcSeconds()).isGreaterThanOrEqualTo(0);
        assertThat(cpu.compilerSeconds() + cpu.gcSeconds()).isLessThanOrEqualTo(cpu.totalSeconds());
    }
}
