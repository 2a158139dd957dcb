package dev.strata.cli;

import io.grpc.netty.shaded.io.netty.util.internal.logging.InternalLoggerFactory;
import io.grpc.netty.shaded.io.netty.util.internal.logging.JdkLoggerFactory;

import java.io.InputStream;

/**
 * {@code bin/strata}'s entry point: runs {@link StrataCommand} once, with the JVM set up for a
 * command that lives a second or less.
 */
public final class StrataCli {
    /** gRPC's copy of Netty reads {@code io.netty.jfr.enabled} under its shaded name. */
    private static final String NETTY_JFR_PROPERTY = "io.grpc.netty.shaded.io.netty.jfr.enabled";

    private StrataCli() {}

    public static void main(String[] args) {
        // Netty logs through the JDK's logger, as gRPC itself does, so a one-shot command does not
        // start logback (its XML configuration alone takes about 50 ms) for messages it rarely prints.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        // Nor does Netty's allocator register its flight-recorder events: the first registration
        // starts JFR's machinery, tens of milliseconds on the first call's path.
        if (System.getProperty(NETTY_JFR_PROPERTY) == null) {
            System.setProperty(NETTY_JFR_PROPERTY, "false");
        }
        System.exit(StrataCommand.commandLineFor(args, System.in, System.console() != null).execute(args));
    }

    /** Runs the command line with no standard input; returns the exit code. */
    public static int run(String... args) {
        return StrataCommand.commandLine(InputStream.nullInputStream(), false).execute(args);
    }
}
