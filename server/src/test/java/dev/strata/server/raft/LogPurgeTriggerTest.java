package dev.strata.server.raft;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogPurgeTriggerTest {
    private final AtomicLong durable = new AtomicLong();
    private final AtomicInteger asked = new AtomicInteger();
    private final LogPurgeTrigger trigger = new LogPurgeTrigger(1000, durable::get, asked::incrementAndGet);

    @Test
    void asksOnceASegmentsWorthOfLogWentByAndAFlushMovedTheDurableIndex() {
        durable.set(5);
        trigger.applied(999);
        assertThat(asked).as("less than a segment's worth").hasValue(0);
        trigger.applied(1);
        assertThat(asked).hasValue(1);
        durable.set(9);
        trigger.applied(500);
        assertThat(asked).as("the count starts again after asking").hasValue(1);
        trigger.applied(500);
        assertThat(asked).hasValue(2);
    }

    @Test
    void waitsForAFlushWhenTheDurableIndexHasNotMoved() {
        durable.set(5);
        trigger.applied(1000);
        assertThat(asked).hasValue(1);
        trigger.applied(1000);
        assertThat(asked).as("no flush since the last request: nothing more to purge").hasValue(1);
        trigger.applied(100);
        assertThat(asked).hasValue(1);
        durable.set(8);
        trigger.applied(24);
        assertThat(asked).as("not looked at again until an eighth more went by").hasValue(1);
        trigger.applied(1);
        assertThat(asked).as("the flush is seen at the next look").hasValue(2);
    }

    @Test
    void aNodeWithNothingDurableNeverAsks() {
        for (int i = 0; i < 100; i++) {
            trigger.applied(1000);
        }
        assertThat(asked).hasValue(0);
    }

    @Test
    void refusesANonPositiveSegmentSize() {
        assertThatThrownBy(() -> new LogPurgeTrigger(0, durable::get, asked::incrementAndGet))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
