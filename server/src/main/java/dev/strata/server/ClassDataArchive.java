package dev.strata.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes a class-data sharing archive of the classes this node has loaded, when the launcher
 * asks for one: later starts map it instead of loading and verifying those classes again, which
 * takes seconds off a restart on a small machine.
 *
 * <p>The launcher ({@code bin/strata-server}, {@code bin/strata-dev}) sets the system property
 * {@value #PROPERTY} to the archive's path, with {@code -XX:+RecordDynamicDumpInfo}, for one node
 * when the archive is missing. The dump waits {@link #DELAY} after the node starts serving, so it
 * holds the classes of requests, checkpoints and elections as well as of the start itself, and
 * does not depend on a graceful stop (a node that is only ever killed gets one too). It is
 * written beside the target and renamed over it, so a node starting meanwhile maps either no
 * archive or a whole one.
 */
final class ClassDataArchive {
    static final String PROPERTY = "strata.class-data-archive";
    private static final Duration DELAY = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(ClassDataArchive.class);

    private ClassDataArchive() {}

    /** Schedules the dump on {@code timer} if the launcher asked for one; otherwise does nothing. */
    static void scheduleIfRequested(ScheduledExecutorService timer) {
        String target = System.getProperty(PROPERTY, "");
        if (!target.isBlank()) {
            timer.schedule(() -> dump(Path.of(target)), DELAY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void dump(Path target) {
        Path partial = target.resolveSibling(target.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
        try {
            long start = System.nanoTime();
            // The jcmd command VM.cds dynamic_dump, through the diagnostic MBean every HotSpot JVM registers.
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmCds",
                    new Object[] {new String[] {"dynamic_dump", partial.toString()}}, new String[] {String[].class.getName()});
            if (!Files.isRegularFile(partial)) {
                LOG.warn("the JVM wrote no class-data archive to {}; the next start loads its classes as this one did", partial);
                return;
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            LOG.info("wrote the class-data archive {} ({} MiB) in {} ms; later starts map it", target, Files.size(target) >> 20,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (JMException | IOException | RuntimeException e) {
            LOG.warn("could not write the class-data archive {}: {}; the next start loads its classes as this one did", target,
                    e.toString());
            try {
                Files.deleteIfExists(partial);
            } catch (IOException cleanup) {
                LOG.warn("could not delete {}: {}", partial, cleanup.toString());
            }
        }
    }
}
