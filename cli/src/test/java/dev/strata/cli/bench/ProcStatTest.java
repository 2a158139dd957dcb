package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcStatTest {
    /** A real line's shape: pid, (comm), state, then numbers; utime is field 14 and stime field 15. */
    private static String line(String comm, long utime, long stime) {
        return "4242 (" + comm + ") S 1 4242 4242 0 -1 4194560 12345 0 7 0 " + utime + " " + stime
                + " 0 0 20 0 57 0 1234567 3221225472 170000 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 1 0 0 0 0 0";
    }

    @Test
    void addsUserAndSystemTicks() {
        assertThat(ProcStat.cpuTicks(line("etcd", 1500, 320))).isEqualTo(1820);
    }

    @Test
    void nameWithSpacesAndParenthesesIsSkippedWhole() {
        assertThat(ProcStat.cpuTicks(line("my (odd) name ) 99 98", 7, 5))).isEqualTo(12);
        assertThat(ProcStat.cpuTicks(line("java", 0, 0))).isZero();
    }

    @Test
    void emptyNameStillParses() {
        assertThat(ProcStat.cpuTicks(line("", 3, 4))).isEqualTo(7);
    }

    @Test
    void refusesWhatIsNotAStatLine() {
        assertThatThrownBy(() -> ProcStat.cpuTicks("no parenthesis here")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.cpuTicks("1 (x) S 1 2")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsThisProcess() throws Exception {
        assertThat(ProcStat.cpuNanos(ProcessHandle.current().pid())).isGreaterThan(0);
    }
}
