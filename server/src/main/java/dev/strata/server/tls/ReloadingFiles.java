package dev.strata.server.tls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Something loaded from files (a certificate and key, CA certificates) and loaded again when the
 * files change, checked each time it is asked for: TLS asks at each handshake, as etcd re-reads
 * its certificates at each handshake, so a rotated certificate is served on the next new
 * connection and established connections are left alone. Rotation is rarely atomic (the
 * certificate is written, then the key): files that do not load, or do not match, are logged
 * and the last good value stays in use until the files change again. Thread-safe.
 *
 * @param <T> what the files load into
 */
final class ReloadingFiles<T> {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingFiles.class);

    private final String what;
    private final List<Path> files;
    private final Supplier<T> loader;
    private final Function<T, String> describe;
    private volatile FileStamp stamp;
    private volatile T current;
    private volatile T previous;

    /**
     * Loads the files now.
     *
     * @param what     what they hold, for logs ("the client port's certificate")
     * @param loader   reads the files; throws IllegalArgumentException naming a file when they do not load
     * @param describe a short description of a loaded value for logs (serial, subject, expiry)
     * @throws IllegalArgumentException from the first load
     */
    ReloadingFiles(String what, List<Path> files, Supplier<T> loader, Function<T, String> describe) {
        this.what = what;
        this.files = List.copyOf(files);
        this.loader = loader;
        this.describe = describe;
        this.stamp = FileStamp.of(this.files);
        this.current = loader.get();
    }

    /** The value from the files as they are now, or the last good one when they do not load. */
    T get() {
        FileStamp now = FileStamp.of(files);
        if (!now.equals(stamp)) {
            reload(now);
        }
        return current;
    }

    /** The value {@link #get} returns now, without looking at the files. */
    T latest() {
        return current;
    }

    /** The value {@link #get} returned before the last reload, or null. */
    T previous() {
        return previous;
    }

    private synchronized void reload(FileStamp now) {
        if (now.equals(stamp)) {
            return; // another handshake reloaded them meanwhile
        }
        // Taken before reading: a write that lands during the read changes the stamp again, so
        // the files are read once more on the next check.
        stamp = now;
        T next;
        try {
            next = loader.get();
        } catch (IllegalArgumentException e) {
            LOG.warn("{} changed on disk but does not load, still serving {}: {}", what, describe.apply(current), e.getMessage());
            return;
        }
        previous = current;
        current = next;
        LOG.info("{} reloaded: now {}", what, describe.apply(next));
    }
}
