package dev.strata.it.nemesis;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NemesesTest {
    private static final List<String> CRASHES = List.of("kill-node", "kill-leader", "restart", "pause-node", "pause-leader",
            "wipe", "wipe-in-place", "wipe-during-catch-up", "wipe-asking-gone-peers", "disk-full", "membership",
            "engine-log-damage");

    @Test
    void everyNameGivesANemesisOfThatName() {
        for (String name : Nemeses.names()) {
            assertThat(Nemeses.named(name).name()).isEqualTo(name);
        }
    }

    @Test
    void anUnknownNameIsRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> Nemeses.named("meteor"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown nemesis \"meteor\"")
                .hasMessageContaining("kill-leader");
    }

    @Test
    void randomCompositionsNeverPairTwoCrashesOrTwoPartitionsAndWipesRunAlone() {
        Random random = new Random(7);
        int composed = 0;
        for (int i = 0; i < 2000; i++) {
            List<String> parts = List.of(Nemeses.random(Nemeses.names(), random).name().split("\\+"));
            assertThat(parts).hasSizeBetween(1, 2);
            if (parts.size() == 2) {
                composed++;
                assertThat(parts).doesNotContain("wipe", "wipe-in-place", "wipe-during-catch-up", "wipe-asking-gone-peers");
                assertThat(parts.stream().filter(CRASHES::contains).count()).isLessThanOrEqualTo(1);
                assertThat(parts.stream().filter(p -> p.startsWith("partition")).count()).isLessThanOrEqualTo(1);
                assertThat(parts.get(0)).isNotEqualTo(parts.get(1));
            }
        }
        assertThat(composed).as("compositions drawn").isPositive();
    }

    /** A nemesis that injects as told and records its calls. */
    private record Scripted(String name, Injection injection, List<String> calls) implements Nemesis {
        @Override
        public Injection inject(FaultContext context) {
            calls.add("inject " + name);
            return injection;
        }

        @Override
        public String heal(FaultContext context) {
            calls.add("heal " + name);
            return "healed " + name;
        }
    }

    @Test
    void aCompositionIsAFaultWhenAnyPartIsAndLogsEveryPart() {
        List<String> calls = new java.util.ArrayList<>();
        Nemesis transferThenSlow = Nemeses.compose(List.of(
                new Scripted("transfer", Injection.none("no follower can take leadership: no transfer"), calls),
                new Scripted("slow", Injection.of("slow links"), calls)));
        Injection both = transferThenSlow.inject(null);
        assertThat(both.faulted()).isTrue();
        assertThat(both.description()).isEqualTo("no follower can take leadership: no transfer; slow links");

        Nemesis neither = Nemeses.compose(List.of(new Scripted("a", Injection.none("nothing a"), calls),
                new Scripted("b", Injection.none("nothing b"), calls)));
        assertThat(neither.inject(null).faulted()).as("no part did anything").isFalse();
        assertThat(calls).containsExactly("inject transfer", "inject slow", "inject a", "inject b");
    }
}
