package dev.strata.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Gathers configuration values from, in rising precedence: the defaults, a properties file,
 * {@code STRATA_*} environment variables and flags; remembers where each value came from, so
 * the start-up log can say it. In a Kubernetes StatefulSet it also derives the node id, peers
 * and join from the pod name ({@link StatefulSetPeers}).
 */
public final class ConfigLoader {
    private ConfigLoader() {}

    /**
     * A resolved configuration with, per key, where its value came from.
     *
     * @param config  the validated configuration
     * @param sources key name -> "default", "file PATH", "env NAME" or "flag --x"
     * @param values  key name -> the value as given (or the default)
     */
    public record Loaded(ServerConfig config, Map<String, String> values, Map<String, String> sources) {}

    /**
     * Resolves the configuration.
     *
     * @param file  a properties file ({@code strata.server.client-port=7100} lines), or null
     * @param env   the environment; unknown {@code STRATA_*} variables are ignored because the
     *              launchers use a few of their own (STRATA_LOG_LEVEL, ...)
     * @param flags key name -> value, for the flags given on the command line
     * @throws IllegalArgumentException for an unreadable file, an unknown key in it, a bad value, or
     *         {@code strata.cluster.statefulset.service} together with an explicit node id or peers
     */
    public static Loaded load(Path file, Map<String, String> env, Map<String, String> flags) {
        Map<String, String> given = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        if (file != null) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file)) {
                p.load(r);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read configuration file " + file + ": " + e.getMessage(), e);
            }
            for (String name : p.stringPropertyNames()) {
                if (ConfigKeys.byName(name) == null) {
                    throw new IllegalArgumentException("unknown key \"" + name + "\" in " + file + "; strata-server --help lists them");
                }
                given.put(name, p.getProperty(name));
                sources.put(name, "file " + file);
            }
        }
        for (ConfigKey k : ConfigKeys.ALL) {
            String value = env.get(k.env());
            if (value != null) {
                given.put(k.name(), value);
                sources.put(k.name(), "env " + k.env());
            }
        }
        for (Map.Entry<String, String> f : flags.entrySet()) {
            ConfigKey k = ConfigKeys.byName(f.getKey());
            given.put(f.getKey(), f.getValue());
            sources.put(f.getKey(), "flag " + (k == null ? f.getKey() : k.flag()));
        }
        deriveFromStatefulSet(given, sources, env);
        ServerConfig config = ServerConfig.resolve(given);
        Map<String, String> values = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKeys.ALL) {
            values.put(k.name(), given.getOrDefault(k.name(), k.defaultValue()));
            sources.putIfAbsent(k.name(), "default");
        }
        return new Loaded(config, values, sources);
    }

    /**
     * In a StatefulSet ({@code strata.cluster.statefulset.service} set), fills in the node id, the
     * initial peers and join from {@code POD_NAME} (see {@link StatefulSetPeers}). An explicit node
     * id or peer list contradicts the derivation and is refused rather than silently preferred,
     * since a pod started with the wrong id would join as somebody else. An explicit join wins:
     * it lets a pod of the initial set whose volume was lost start empty and be added again.
     */
    private static void deriveFromStatefulSet(Map<String, String> given, Map<String, String> sources, Map<String, String> env) {
        String service = given.getOrDefault(ConfigKeys.STATEFULSET_SERVICE.name(), "").trim();
        if (service.isEmpty()) {
            return;
        }
        for (ConfigKey explicit : List.of(ConfigKeys.NODE_ID, ConfigKeys.PEERS)) {
            if (given.containsKey(explicit.name())) {
                throw new IllegalArgumentException(explicit.name() + " is set (" + sources.get(explicit.name()) + ") but "
                        + ConfigKeys.STATEFULSET_SERVICE.name() + " derives it from the pod name; unset one of them");
            }
        }
        String podName = env.get(StatefulSetPeers.POD_NAME_ENV);
        if (podName == null || podName.isBlank()) {
            throw new IllegalArgumentException(ConfigKeys.STATEFULSET_SERVICE.name() + " is set, so the pod name must be in "
                    + StatefulSetPeers.POD_NAME_ENV + " (the downward API's metadata.name), but it is not set");
        }
        ConfigKey size = ConfigKeys.STATEFULSET_INITIAL_SIZE;
        ConfigKey template = ConfigKeys.STATEFULSET_HOST_TEMPLATE;
        int initialSize = Values.intValue(size.name(), given.getOrDefault(size.name(), size.defaultValue()), 1, 1000);
        StatefulSetPeers set;
        try {
            set = StatefulSetPeers.of(podName, env.get(StatefulSetPeers.POD_NAMESPACE_ENV), service, initialSize,
                    given.getOrDefault(template.name(), template.defaultValue()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ConfigKeys.STATEFULSET_SERVICE.name() + ": " + e.getMessage(), e);
        }
        // Every pod runs the same spec, so every peer listens on the ports this pod was given.
        int raftPort = Values.port(ConfigKeys.RAFT_PORT.name(),
                given.getOrDefault(ConfigKeys.RAFT_PORT.name(), ConfigKeys.RAFT_PORT.defaultValue()));
        int clientPort = Values.port(ConfigKeys.CLIENT_PORT.name(),
                given.getOrDefault(ConfigKeys.CLIENT_PORT.name(), ConfigKeys.CLIENT_PORT.defaultValue()));
        String source = "derived from " + StatefulSetPeers.POD_NAME_ENV + "=" + podName.trim();
        given.put(ConfigKeys.NODE_ID.name(), Long.toString(set.nodeId()));
        sources.put(ConfigKeys.NODE_ID.name(), source);
        given.put(ConfigKeys.PEERS.name(), set.initialPeers(raftPort, clientPort).stream().map(PeerSpec::toString)
                .collect(Collectors.joining(",")));
        sources.put(ConfigKeys.PEERS.name(), source);
        if (!given.containsKey(ConfigKeys.JOIN.name())) {
            given.put(ConfigKeys.JOIN.name(), Boolean.toString(set.joins()));
            sources.put(ConfigKeys.JOIN.name(), source);
        }
    }
}
