package dev.strata.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroundTruthTest {
    private static final SeqValues VALUES = new SeqValues(7, 32);

    private final SplittableRandom random = new SplittableRandom(42);

    /** Runs one command to completion with {@code outcome}. */
    private GroundTruth.Command put(GroundTruth t) {
        GroundTruth.Command c = t.begin(random, false);
        assertThat(c).isNotNull();
        assertThat(c.delete()).isFalse();
        return c;
    }

    private static GroundTruth.Observed holds(int key, long command) {
        return new GroundTruth.Observed(key, VALUES.of(command));
    }

    private static GroundTruth.Verification verify(GroundTruth t, GroundTruth.Observed... observed) {
        return t.verify(List.of(observed).iterator(), VALUES::of);
    }

    @Test
    void acknowledgedPutsMustAllBeReadBack() {
        GroundTruth t = new GroundTruth(1);
        GroundTruth.Command first = put(t);
        t.acknowledged(first);
        GroundTruth.Command second = put(t);
        t.acknowledged(second);

        assertThat(second.target()).isEqualTo(first.target() + 1);
        assertThat(verify(t, holds(0, second.target()))).isEqualTo(new GroundTruth.Verification(1, 0, 0, 0, 0, 0, 0, 0, 0));
        GroundTruth.Verification stale = verify(t, holds(0, first.target()));
        assertThat(stale.wrong()).isEqualTo(1);
        assertThat(stale.errorRate()).isEqualTo(1.0);
        GroundTruth.Verification lost = verify(t);
        assertThat(lost.missing()).isEqualTo(1);
        assertThat(lost.clean()).isFalse();
    }

    @Test
    void deletesPickKeysThatHoldAValue() {
        GroundTruth t = new GroundTruth(1000);
        GroundTruth.Command p = put(t);
        t.acknowledged(p);

        GroundTruth.Command d = t.begin(random, true);
        assertThat(d.delete()).isTrue();
        assertThat(d.key()).isEqualTo(p.key());
        t.acknowledged(d);

        assertThat(t.presentKeys()).isZero();
        assertThat(verify(t).clean()).isTrue();
        assertThat(verify(t, holds(p.key(), p.target())).extra()).isEqualTo(1);
    }

    @Test
    void aDeleteWithNoKeyHoldingAValueBecomesAPut() {
        GroundTruth t = new GroundTruth(10);
        assertThat(t.begin(random, true).delete()).isFalse();
    }

    @Test
    void busyKeysAreNeverPickedAgain() {
        GroundTruth t = new GroundTruth(4);
        List<GroundTruth.Command> inFlight = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            inFlight.add(put(t));
        }
        assertThat(inFlight).extracting(GroundTruth.Command::key).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(t.begin(random, false)).isNull();
        assertThat(t.commands()).isEqualTo(4);
        assertThatThrownBy(() -> t.verify(List.<GroundTruth.Observed>of().iterator(), VALUES::of))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("4 commands are still in flight");

        t.notApplied(inFlight.get(0));
        assertThat(t.begin(random, false).key()).isEqualTo(inFlight.get(0).key());
    }

    @Test
    void aCommandThatFailedBeforeReachingTheClusterLeavesTheStateAsItWas() {
        GroundTruth t = new GroundTruth(1);
        GroundTruth.Command p = put(t);
        t.acknowledged(p);
        t.notApplied(put(t));

        assertThat(verify(t, holds(0, p.target())).clean()).isTrue();
    }

    @Test
    void anUnknownOutcomeAcceptsTheStateBeforeOrAfterAndRetiresTheKey() {
        GroundTruth t = new GroundTruth(1);
        GroundTruth.Command p = put(t);
        t.acknowledged(p);
        GroundTruth.Command d = t.begin(random, true);
        t.outcomeUnknown(d);

        assertThat(t.begin(random, false)).isNull();
        assertThat(t.uncertainKeys()).isEqualTo(1);
        assertThat(t.presentKeys()).isZero();
        GroundTruth.Verification old = verify(t, holds(0, p.target()));
        assertThat(old).isEqualTo(new GroundTruth.Verification(0, 0, 0, 0, 0, 1, 1, 0, 0));
        GroundTruth.Verification applied = verify(t);
        assertThat(applied).isEqualTo(new GroundTruth.Verification(0, 0, 0, 0, 0, 1, 0, 1, 0));
        GroundTruth.Verification neither = verify(t, holds(0, p.target() + 7));
        assertThat(neither.uncertainBad()).isEqualTo(1);
        assertThat(neither.clean()).isFalse();
        assertThat(neither.errorRate()).isZero();
    }

    @Test
    void keysOutsideTheKeySpaceAreForeign() {
        GroundTruth t = new GroundTruth(2);
        GroundTruth.Verification v = verify(t, new GroundTruth.Observed(-1, new byte[1]));
        assertThat(v.foreign()).isEqualTo(1);
        assertThat(v.clean()).isFalse();
    }

    @Test
    void completingACommandTwiceIsRefused() {
        GroundTruth t = new GroundTruth(1);
        GroundTruth.Command p = put(t);
        t.acknowledged(p);
        assertThatThrownBy(() -> t.acknowledged(p)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aLongMixedRunAgreesWithAPlainMap() {
        // Random outcomes against a simple model: each key's expected value, or a pair of candidates once uncertain.
        GroundTruth t = new GroundTruth(50);
        long[] model = new long[50];
        boolean[] unsure = new boolean[50];
        long[] alternative = new long[50];
        for (int i = 0; i < 5000; i++) {
            GroundTruth.Command c = t.begin(random, random.nextDouble() < 0.3);
            if (c == null) {
                break;
            }
            if (c.delete()) {
                assertThat(model[c.key()]).isNotEqualTo(GroundTruth.ABSENT);
            }
            double outcome = random.nextDouble();
            if (outcome < 0.9) {
                t.acknowledged(c);
                model[c.key()] = c.target();
            } else if (outcome < 0.95) {
                t.notApplied(c);
            } else {
                t.outcomeUnknown(c);
                unsure[c.key()] = true;
                alternative[c.key()] = c.target();
            }
        }
        List<GroundTruth.Observed> cluster = new ArrayList<>();
        long pairs = 0;
        for (int k = 0; k < 50; k++) {
            long state = unsure[k] && random.nextBoolean() ? alternative[k] : model[k];
            if (state != GroundTruth.ABSENT) {
                cluster.add(holds(k, state));
            }
            pairs += !unsure[k] && model[k] != GroundTruth.ABSENT ? 1 : 0;
        }
        GroundTruth.Verification v = t.verify(cluster.iterator(), VALUES::of);
        assertThat(v.clean()).isTrue();
        assertThat(v.pairs()).isEqualTo(pairs);
        assertThat(v.uncertain()).isEqualTo(t.uncertainKeys());
    }
}
