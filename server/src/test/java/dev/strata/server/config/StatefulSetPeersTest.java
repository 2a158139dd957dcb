package dev.strata.server.config;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deriving a node's id and peers from its StatefulSet pod name, alone and through {@link ConfigLoader}. */
class StatefulSetPeersTest {
    private static final String DEFAULT_TEMPLATE = ConfigKeys.STATEFULSET_HOST_TEMPLATE.defaultValue();

    private static Map<String, String> pod(String name) {
        return Map.of("POD_NAME", name, "POD_NAMESPACE", "prod", "STRATA_CLUSTER_STATEFULSET_SERVICE", "strata-peer");
    }

    @Test
    void theOrdinalGivesTheIdAndTheFirstPodsAreThePeersAtTheirDnsNames() {
        StatefulSetPeers set = StatefulSetPeers.of("strata-1", "prod", "strata-peer", 3, DEFAULT_TEMPLATE);
        assertThat(set.nodeId()).isEqualTo(2);
        assertThat(set.joins()).isFalse();
        assertThat(set.initialPeers(7101, 7100)).containsExactly(
                new PeerSpec(1, "strata-0.strata-peer.prod.svc.cluster.local", 7101, 7100),
                new PeerSpec(2, "strata-1.strata-peer.prod.svc.cluster.local", 7101, 7100),
                new PeerSpec(3, "strata-2.strata-peer.prod.svc.cluster.local", 7101, 7100));
    }

    @Test
    void aPodAtOrAboveTheInitialSizeJoins() {
        assertThat(StatefulSetPeers.of("strata-2", "prod", "strata-peer", 3, DEFAULT_TEMPLATE).joins()).isFalse();
        StatefulSetPeers fourth = StatefulSetPeers.of("strata-3", "prod", "strata-peer", 3, DEFAULT_TEMPLATE);
        assertThat(fourth.joins()).isTrue();
        assertThat(fourth.nodeId()).isEqualTo(4);
        assertThat(fourth.initialPeers(7101, 7100)).extracting(PeerSpec::id).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aStatefulSetNameWithDashesAndDigitsKeepsAllButTheLastPart() {
        StatefulSetPeers set = StatefulSetPeers.of("kv-2-east-10", "ns", "kv-peer", 12, DEFAULT_TEMPLATE);
        assertThat(set.statefulSet()).isEqualTo("kv-2-east");
        assertThat(set.nodeId()).isEqualTo(11);
        assertThat(set.host(0)).isEqualTo("kv-2-east-0.kv-peer.ns.svc.cluster.local");
    }

    @Test
    void theTemplateMayUseTheOrdinalAndAnotherClusterDomain() {
        assertThat(StatefulSetPeers.of("strata-4", null, "p", 3, "127.1.{ordinal}.1").host(4)).isEqualTo("127.1.4.1");
        assertThat(StatefulSetPeers.of("strata-0", "ns", "p", 3, "{pod}.{service}.{namespace}.svc.example.org").host(2))
                .isEqualTo("strata-2.p.ns.svc.example.org");
    }

    @Test
    void podNamesWithoutAnOrdinalAreRefused() {
        for (String bad : List.of("strata", "strata-", "-1", "strata-01", "strata-x", "strata-1a", "strata-99999999999", "")) {
            assertThatThrownBy(() -> StatefulSetPeers.of(bad, "ns", "p", 3, DEFAULT_TEMPLATE))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("POD_NAME must be a StatefulSet pod name");
        }
    }

    @Test
    void templatesThatCannotWorkAreRefused() {
        assertThatThrownBy(() -> StatefulSetPeers.of("s-0", "ns", "p", 3, "{service}.{namespace}.svc"))
                .hasMessageContaining("gives every pod the same host");
        assertThatThrownBy(() -> StatefulSetPeers.of("s-0", "ns", "p", 3, "{pod}.{svc}"))
                .hasMessageContaining("unknown placeholder {svc}");
        assertThatThrownBy(() -> StatefulSetPeers.of("s-0", null, "p", 3, DEFAULT_TEMPLATE))
                .hasMessageContaining("needs {namespace}: set POD_NAMESPACE");
        assertThatThrownBy(() -> StatefulSetPeers.of("s-0", "ns", "p", 0, DEFAULT_TEMPLATE))
                .hasMessageContaining("at least 1, was 0");
    }

    @Test
    void theLoaderDerivesIdPeersAndJoinAndSaysWhereFrom() {
        ConfigLoader.Loaded loaded = ConfigLoader.load(null, pod("strata-1"), Map.of("strata.server.client-port", "7200"));
        ServerConfig c = loaded.config();
        assertThat(c.nodeId()).isEqualTo(2);
        assertThat(c.join()).isFalse();
        assertThat(c.peers()).hasSize(3).allSatisfy(p -> {
            assertThat(p.host()).isEqualTo("strata-" + (p.id() - 1) + ".strata-peer.prod.svc.cluster.local");
            assertThat(p.clientPort()).isEqualTo(7200);
            assertThat(p.raftPort()).isEqualTo(7101);
        });
        assertThat(c.self().host()).isEqualTo("strata-1.strata-peer.prod.svc.cluster.local");
        assertThat(loaded.sources()).containsEntry("strata.node.id", "derived from POD_NAME=strata-1")
                .containsEntry("strata.cluster.peers", "derived from POD_NAME=strata-1")
                .containsEntry("strata.cluster.join", "derived from POD_NAME=strata-1");
    }

    @Test
    void aPodAddedByScalingUpStartsInJoinModeWithTheInitialMembersAsPeers() {
        ServerConfig c = ConfigLoader.load(null, pod("strata-4"), Map.of("strata.cluster.statefulset.initial-size", "3")).config();
        assertThat(c.nodeId()).isEqualTo(5);
        assertThat(c.join()).isTrue();
        assertThat(c.peers()).extracting(PeerSpec::id).containsExactly(1L, 2L, 3L);
    }

    @Test
    void anExplicitJoinWinsSoAWipedInitialPodCanBeAddedAgain() {
        ServerConfig c = ConfigLoader.load(null, pod("strata-0"), Map.of("strata.cluster.join", "true")).config();
        assertThat(c.nodeId()).isEqualTo(1);
        assertThat(c.join()).isTrue();
    }

    @Test
    void anExplicitNodeIdOrPeerListConflictsWithTheDerivation() {
        assertThatThrownBy(() -> ConfigLoader.load(null, pod("strata-0"), Map.of("strata.node.id", "7")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strata.node.id is set (flag --node-id) but strata.cluster.statefulset.service derives it");
        Map<String, String> env = new HashMap<>(pod("strata-0"));
        env.put("STRATA_CLUSTER_PEERS", "1=a:1:2");
        assertThatThrownBy(() -> ConfigLoader.load(null, env, Map.of()))
                .hasMessageContaining("strata.cluster.peers is set (env STRATA_CLUSTER_PEERS)");
    }

    @Test
    void withoutPodNameTheLoaderSaysWhatIsMissing() {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("STRATA_CLUSTER_STATEFULSET_SERVICE", "strata-peer"), Map.of()))
                .hasMessageContaining("the pod name must be in POD_NAME");
        assertThatThrownBy(() -> ConfigLoader.load(null, pod("strata"), Map.of()))
                .hasMessageContaining("strata.cluster.statefulset.service: POD_NAME must be a StatefulSet pod name");
    }

    @Test
    void withoutTheServiceSettingPodNameIsIgnored() {
        ServerConfig c = ConfigLoader.load(null, Map.of("POD_NAME", "strata-2"), Map.of()).config();
        assertThat(c.nodeId()).isEqualTo(1);
        assertThat(c.peers()).isEmpty();
    }
}
