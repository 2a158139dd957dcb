package dev.strata.server.config;

import java.util.Locale;

/**
 * One configuration key: its name in files ({@code strata.server.client-port}), its flag
 * ({@code --client-port}), its environment variable ({@code STRATA_SERVER_CLIENT_PORT}, derived
 * from the name), its default and what it does.
 *
 * @param name         the key as written in a properties file
 * @param flag         the long command-line option
 * @param defaultValue the default, in the same syntax as a value ("" for none)
 * @param description  one sentence for {@code --help}
 */
public record ConfigKey(String name, String flag, String defaultValue, String description) {

    /** {@code strata.server.client-port} -> {@code STRATA_SERVER_CLIENT_PORT}. */
    public String env() {
        return name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
