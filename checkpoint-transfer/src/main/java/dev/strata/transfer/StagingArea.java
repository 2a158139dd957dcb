package dev.strata.transfer;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.proto.internal.v1.ContentId;
import dev.strata.proto.internal.v1.PartialFile;
import dev.strata.proto.internal.v1.PlannedFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a receiver keeps what it has fetched, by content rather than by name: {@code objects/}
 * holds each finished file as {@code <size>-<crc>} (verified as written, fsynced) and each unfinished one
 * as {@code <size>-<crc>.part} (a prefix of verified chunks). Table names are local to the node
 * that sent them, so a plan from another sender (after a leader change) still finds the files
 * it shares with the last one; a restart finds them too. {@link #assemble} then links a plan's
 * files under their names into a directory the engine installs from. One fetch at a time;
 * only {@link #makeDurable} may run on other threads beside it.
 */
public final class StagingArea {
    private static final Logger LOG = LoggerFactory.getLogger(StagingArea.class);
    private static final String PART = ".part";

    private final Path dir;
    private final Path objects;
    private final Map<ContentId, Path> complete = new ConcurrentHashMap<>();

    /** Opens (creating) the area in {@code dir}, keeping the finished files that still verify. */
    public StagingArea(Path dir) throws IOException {
        this.dir = dir;
        this.objects = dir.resolve("objects");
        Files.createDirectories(objects);
        try (var names = Files.list(objects)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                String name = p.getFileName().toString();
                ContentId c = parse(name.endsWith(PART) ? name.substring(0, name.length() - PART.length()) : name);
                if (c == null) {
                    Files.delete(p);
                } else if (!name.endsWith(PART)) {
                    if (matches(p, c)) {
                        complete.put(c, p);
                    } else {
                        LOG.warn("staged file {} does not match its content id; fetching it again", p);
                        Files.delete(p);
                    }
                }
            }
        }
    }

    public Path directory() {
        return dir;
    }

    private static String name(ContentId c) {
        return c.getSize() + "-" + Integer.toHexString(c.getCrc32C());
    }

    private static ContentId parse(String name) {
        int dash = name.indexOf('-');
        try {
            return dash < 0 ? null : ContentId.newBuilder().setSize(Long.parseLong(name.substring(0, dash)))
                    .setCrc32C(Integer.parseUnsignedInt(name.substring(dash + 1), 16)).build();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean matches(Path p, ContentId c) throws IOException {
        return Files.size(p) == c.getSize() && StagedFiles.crcOf(p) == c.getCrc32C();
    }

    /** The finished files, by content. */
    public Map<ContentId, Path> complete() {
        return Map.copyOf(complete);
    }

    /** The unfinished files, with how much of each is here. */
    public List<PartialFile> partials() throws IOException {
        List<PartialFile> out = new ArrayList<>();
        try (var names = Files.list(objects)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(PART)) {
                    ContentId c = parse(name.substring(0, name.length() - PART.length()));
                    long size = Files.size(p);
                    if (c != null && size > 0 && size < c.getSize()) {
                        out.add(PartialFile.newBuilder().setContent(c).setOffset(size).build());
                    }
                }
            }
        }
        return out;
    }

    /**
     * Opens the unfinished file for {@code c} to write from {@code offset}: what lies beyond it
     * (a chunk a break left half-written) is cut off.
     */
    PartFile openPart(ContentId c, long offset) throws IOException {
        return PartFile.openAt(objects.resolve(name(c) + PART), offset);
    }

    /**
     * Checks that the unfinished file for {@code c} matches it whole (its size, and the CRC of
     * every byte written to it); {@link #makeDurable} must follow.
     *
     * @throws CorruptionException when it does not (it is closed and deleted)
     */
    void verify(ContentId c, PartFile written) throws IOException {
        if (written.size() != c.getSize() || written.crc32c() != c.getCrc32C()) {
            written.close();
            Files.deleteIfExists(written.path());
            throw new CorruptionException(written.path(), 0, "staged " + written.size() + " bytes with CRC "
                    + Integer.toHexString(written.crc32c()) + ", the plan says " + name(c));
        }
    }

    /**
     * Makes a {@link #verify verified} file durable and finished. Safe to call from another
     * thread than the fetch's, for different files at once.
     */
    void makeDurable(ContentId c, PartFile written) throws IOException {
        try (written) {
            written.force();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(written.path());
            throw e;
        }
        Path done = objects.resolve(name(c));
        Files.move(written.path(), done, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        complete.put(c, done);
    }

    /** Takes a file this node already has (its own engine's, a backup's) as the object for {@code c}. */
    void adopt(ContentId c, Path local) throws IOException {
        if (complete.containsKey(c)) {
            return;
        }
        Path done = objects.resolve(name(c));
        Files.deleteIfExists(done);
        FileLinks.link(local, done);
        complete.put(c, done);
    }

    /**
     * Links the plan's files, all finished here, under their names into a fresh directory
     * {@code name} of this area, and returns it.
     */
    Path assemble(String name, List<PlannedFile> files) throws IOException {
        Path out = dir.resolve(name);
        FileLinks.deleteTree(out);
        Files.createDirectories(out);
        for (PlannedFile f : files) {
            Path object = complete.get(f.getContent());
            if (object == null) {
                throw new IOException("file " + f.getName() + " of the plan (" + name(f.getContent()) + ") was never staged");
            }
            FileLinks.link(object, out.resolve(f.getName()));
        }
        return out;
    }

    /** Deletes everything staged (after an install, or when the node no longer needs it). */
    public void clear() throws IOException {
        FileLinks.deleteTree(dir);
        complete.clear();
        Files.createDirectories(objects);
    }
}
