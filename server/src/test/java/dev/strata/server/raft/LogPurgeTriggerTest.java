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
    void asksOnceAFlushMovedTheDurableIndexLookingEveryEighthOfASegment() {
        durable.set(5);
        trigger.applied(124);
        assertThat(asked).as("less than an eighth of a segment").hasValue(0);
        trigger.applied(1);
        assertThat(asked).hasValue(1);
        trigger.applied(125);
        trigger.applied(1000);
        assertThat(asked).as("no flush since the last request: nothing more to purge").hasValue(1);
        durable.set(9);
        trigger.applied(100);
        assertThat(asked).as("not looked at again until an eighth more went by").hasValue(1);
        trigger.applied(25);
        assertThat(asked).as("the flush is seen at the next look").hasValue(2);
        durable.set(12);
        trigger.applied(125);
        assertThat(asked).hasValue(3);
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
