/**
 * Server configuration: typed keys with defaults ({@link dev.strata.server.config.ConfigKeys}),
 * resolved from defaults, a properties file, {@code STRATA_*} environment variables and
 * command-line flags, in that order of precedence, into one validated
 * {@link dev.strata.server.config.ServerConfig}.
 */
package dev.strata.server.config;
