package dev.strata.server.config;

import dev.strata.engine.compress.CompressionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerConfigTest {
    private static final String PEERS = "1=127.0.0.1:7101:7100,2=127.0.0.1:7111:7110,3=127.0.0.1:7121:7120";

    @Test
    void defaultsAreTheDocumentedOnes() {
        ServerConfig c = ServerConfig.resolve(Map.of());
        assertThat(c.nodeId()).isEqualTo(1);
        assertThat(c.clientPort()).isEqualTo(7100);
        assertThat(c.raftPort()).isEqualTo(7101);
        assertThat(c.httpPort()).isEqualTo(7102);
        assertThat(c.maxValueSize()).isEqualTo(16L << 20);
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.leaderLease()).isFalse();
        assertThat(c.self()).isEqualTo(new PeerSpec(1, "127.0.0.1", 7101, 7100));
    }

    @Test
    void thisNodesPeerEntrySetsItsPorts() {
        ServerConfig c = ServerConfig.resolve(Map.of("strata.node.id", "2", "strata.cluster.peers", PEERS));
        assertThat(c.clientPort()).isEqualTo(7110);
        assertThat(c.raftPort()).isEqualTo(7111);
        assertThat(c.peers()).hasSize(3);
    }

    @Test
    void theRaftTransportListensOnTheAdvertisedPortUnlessToldOtherwise() {
        ServerConfig plain = ServerConfig.resolve(Map.of("strata.node.id", "2", "strata.cluster.peers", PEERS));
        assertThat(plain.raftListenPort()).isEqualTo(7111);
        ServerConfig proxied = ServerConfig.resolve(Map.of("strata.node.id", "2", "strata.cluster.peers", PEERS,
                "strata.server.raft-listen-port", "9111"));
        assertThat(proxied.raftListenPort()).isEqualTo(9111);
        assertThat(proxied.self().raftPort()).isEqualTo(7111);
    }

    @Test
    void aPortThatContradictsThePeerEntryIsAnError() {
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.node.id", "2", "strata.cluster.peers", PEERS,
                "strata.server.raft-port", "9999")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strata.server.raft-port is 9999 but this node's entry in strata.cluster.peers");
    }

    @Test
    void aNodeMissingFromItsPeersMustJoin() {
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.node.id", "4", "strata.cluster.peers", PEERS)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strata.cluster.join = true");
        assertThat(ServerConfig.resolve(Map.of("strata.node.id", "4", "strata.cluster.peers", PEERS, "strata.cluster.join", "true")).join())
                .isTrue();
    }

    @Test
    void badValuesNameTheirKey() {
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.server.max-value-size", "lots")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("strata.server.max-value-size must be a size");
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.server.request-timeout", "10")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("strata.server.request-timeout must be a duration");
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.cluster.peers", "1=host:7101")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not id=host:raftPort:clientPort");
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.server.max-value-size", "32MiB")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strata.server.max-request-size must be at least");
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.no.such", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown configuration key \"strata.no.such\"");
        assertThatThrownBy(() -> ServerConfig.resolve(Map.of("strata.engine.compression", "zstd")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strata.engine.compression must be default or adaptive, was 'zstd'");
    }

    @Test
    void theEngineCompressionPolicyIsNamed() {
        assertThat(ServerConfig.resolve(Map.of()).engineCompression()).isEqualTo(CompressionPolicy.defaults());
        assertThat(ServerConfig.resolve(Map.of("strata.engine.compression", " Adaptive")).engineCompression())
                .isEqualTo(CompressionPolicy.adaptive());
    }

    @Test
    void sizesAndDurationsParse() {
        assertThat(Values.bytes("x", "65536")).isEqualTo(65536);
        assertThat(Values.bytes("x", "64KiB")).isEqualTo(65536);
        assertThat(Values.bytes("x", "16M")).isEqualTo(16L << 20);
        assertThat(Values.bytes("x", "1GB")).isEqualTo(1L << 30);
        assertThat(Values.duration("x", "250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Values.duration("x", "2m")).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void flagsBeatEnvironmentBeatsFileBeatsDefaults(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("strata.properties");
        Files.writeString(file, "strata.server.http-port=8000\nstrata.server.request-timeout=20s\nstrata.engine.compaction-threads=3\n");
        ConfigLoader.Loaded loaded = ConfigLoader.load(file,
                Map.of("STRATA_SERVER_REQUEST_TIMEOUT", "30s", "STRATA_ENGINE_COMPACTION_THREADS", "4", "STRATA_LOG_LEVEL", "DEBUG"),
                Map.of("strata.engine.compaction-threads", "5"));
        assertThat(loaded.config().httpPort()).isEqualTo(8000);
        assertThat(loaded.config().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(loaded.config().compactionThreads()).isEqualTo(5);
        assertThat(loaded.sources()).containsEntry("strata.server.http-port", "file " + file)
                .containsEntry("strata.server.request-timeout", "env STRATA_SERVER_REQUEST_TIMEOUT")
                .containsEntry("strata.engine.compaction-threads", "flag --compaction-threads")
                .containsEntry("strata.server.client-port", "default");
    }

    @Test
    void unknownKeysInTheFileAreErrors(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "strata.server.clientport=1\n");
        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown key \"strata.server.clientport\"");
    }
}
