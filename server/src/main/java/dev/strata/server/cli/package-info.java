/** The {@code strata} command line (run by {@code bin/strata}): backups through checkpoint shipping. */
package dev.strata.server.cli;
