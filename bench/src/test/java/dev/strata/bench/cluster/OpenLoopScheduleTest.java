package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OpenLoopScheduleTest {
    private static final long MS = 1_000_000;

    /** 1000 ops/s over one second: operation k is due at k ms. */
    private final OpenLoopSchedule schedule = new OpenLoopSchedule(1000, 0, 1000 * MS);

    @Test
    void operationsAreDueAtTheirIntendedStarts() {
        assertThat(schedule.intendedStart(0)).isZero();
        assertThat(schedule.intendedStart(10)).isEqualTo(10 * MS);
        OpenLoopSchedule.Admission a = schedule.admit(9 * MS + MS / 2, 0, 10_000);
        assertThat(a.first()).isZero();
        assertThat(a.send()).isEqualTo(10);
        assertThat(a.notSent()).isZero();
        assertThat(schedule.admit(9 * MS + MS / 2, 0, 10_000).due()).as("nothing new is due").isZero();
    }

    @Test
    void dueOperationsOverTheCapAreCountedAsNotSent() {
        OpenLoopSchedule.Admission a = schedule.admit(9 * MS + MS / 2, 2, 5);
        assertThat(a.send()).isEqualTo(3);
        assertThat(a.notSent()).isEqualTo(7);
        assertThat(schedule.next()).as("the refused ones are not due again").isEqualTo(10);
    }

    @Test
    void aFullCapRefusesEverythingDue() {
        OpenLoopSchedule.Admission a = schedule.admit(4 * MS, 5, 5);
        assertThat(a.send()).isZero();
        assertThat(a.notSent()).isEqualTo(5);
    }

    @Test
    void everyOperationBeforeTheEndIsSentOrNotSentOnce() {
        long sent = 0;
        long notSent = 0;
        for (long now = 0; !schedule.finished(); now += 7 * MS) {
            OpenLoopSchedule.Admission a = schedule.admit(now, (int) (now / MS) % 9, 6);
            sent += a.send();
            notSent += a.notSent();
        }
        assertThat(sent + notSent).isEqualTo(1000);
        assertThat(notSent).isPositive();
        assertThat(schedule.admit(5000 * MS, 0, 10).due()).as("nothing is due at or after the end").isZero();
    }

    @Test
    void aLateIssuerAdmitsTheBacklogAtOnce() {
        // A stalled issuer wakes at 500 ms: the 501 operations due by then are admitted, not skipped.
        OpenLoopSchedule.Admission a = schedule.admit(500 * MS, 0, 10_000);
        assertThat(a.due()).isEqualTo(501);
        assertThat(a.send()).isEqualTo(501);
    }

    @Test
    void countsTheRefusedOperationsDueInTheMeasuredWindow() {
        // Operations 0..9 are due at 0..9 ms; with measuring from 6 ms, 6..9 count.
        assertThat(schedule.dueAtOrAfter(0, 10, 6 * MS)).isEqualTo(4);
        assertThat(schedule.dueAtOrAfter(0, 10, 0)).isEqualTo(10);
        assertThat(schedule.dueAtOrAfter(0, 10, 100 * MS)).isZero();
        assertThat(schedule.dueAtOrAfter(5, 5, 0)).isZero();
    }

    @Test
    void fractionalRatesSpreadOperationsEvenly() {
        OpenLoopSchedule third = new OpenLoopSchedule(3, 0, 1_000_000_000L);
        assertThat(third.admit(999_999_999L, 0, 10).due()).isEqualTo(3);
        assertThat(third.finished()).isTrue();
    }

    @Test
    void refusesANonPositiveRate() {
        assertThatThrownBy(() -> new OpenLoopSchedule(0, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpenLoopSchedule(Double.NaN, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
