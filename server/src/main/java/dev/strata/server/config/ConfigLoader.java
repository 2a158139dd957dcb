package dev.strata.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Gathers configuration values from, in rising precedence: the defaults, a properties file,
 * {@code STRATA_*} environment variables and flags; remembers where each value came from, so
 * the start-up log can say it.
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
     * @throws IllegalArgumentException for an unreadable file, an unknown key in it or a bad value
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
        ServerConfig config = ServerConfig.resolve(given);
        Map<String, String> values = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKeys.ALL) {
            values.put(k.name(), given.getOrDefault(k.name(), k.defaultValue()));
            sources.putIfAbsent(k.name(), "default");
        }
        return new Loaded(config, values, sources);
    }
}
