package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InsertCounterTest {
    @Test
    void newKeysFollowTheLoadedOnes() {
        InsertCounter c = new InsertCounter(100);
        assertThat(c.written()).isEqualTo(100);
        assertThat(c.next()).isEqualTo(100);
        assertThat(c.next()).isEqualTo(101);
    }

    @Test
    void writtenWaitsForTheOldestInsertStillInFlight() {
        InsertCounter c = new InsertCounter(10);
        long a = c.next();
        long b = c.next();
        long d = c.next();
        c.finished(d);
        c.finished(b);
        assertThat(c.written()).isEqualTo(10);
        c.finished(a);
        assertThat(c.written()).isEqualTo(13);
    }
}
