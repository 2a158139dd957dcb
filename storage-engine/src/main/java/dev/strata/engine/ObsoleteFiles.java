package dev.strata.engine;

import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValueLogs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Deletes the files the engine no longer needs (LevelDB's {@code DeleteObsoleteFiles}): tables
 * and value logs no live version lists and no flush, compaction or ingest is writing, logs
 * older than the manifest's log number, and old manifests. Checkpoints and deltas live in
 * subdirectories and keep their files by hard links, so they are never touched here.
 * Thread-safe; runs one pass at a time.
 */
final class ObsoleteFiles {
    private static final Logger LOG = LoggerFactory.getLogger(ObsoleteFiles.class);

    private final Path dir;
    private final VersionSet versions;
    private final TableCache tableCache;
    private final ValueLogs valueLogs;

    ObsoleteFiles(Path dir, VersionSet versions, TableCache tableCache, ValueLogs valueLogs) {
        this.dir = dir;
        this.versions = versions;
        this.tableCache = tableCache;
        this.valueLogs = valueLogs;
    }

    /**
     * One pass. Directories are listed before the live sets are computed: a file created after
     * the listing is not seen, and one created before it is already pending or live.
     */
    synchronized void delete() {
        List<Path> names;
        List<Path> valueLogNames;
        try {
            names = list(dir);
            valueLogNames = valueLogs.directory().equals(dir) ? names : list(valueLogs.directory());
        } catch (IOException e) {
            LOG.warn("cannot list {} to delete obsolete files: {}", dir, e.toString());
            return;
        }
        VersionSet.LiveFiles live = versions.liveFiles();
        long logNumber = versions.logNumber();
        long manifest = versions.manifestNumber();
        for (Path p : names) {
            FileNames.Parsed f = FileNames.parse(p.getFileName().toString());
            if (f == null) {
                continue;
            }
            boolean obsolete = switch (f.kind()) {
                case TABLE -> !live.isTableLive(f.number());
                case WAL -> f.number() < logNumber;
                case MANIFEST -> f.number() < manifest;
                default -> false;
            };
            if (obsolete) {
                if (f.kind() == FileNames.Kind.TABLE) {
                    tableCache.evict(f.number());
                }
                deleteQuietly(p);
            }
        }
        for (Path p : valueLogNames) {
            ValueLogId id = ValueLogId.parse(p.getFileName().toString());
            if (id != null && !live.isValueLogLive(id)) {
                valueLogs.evict(id);
                deleteQuietly(p);
            }
        }
    }

    private static List<Path> list(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.toList();
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("cannot delete obsolete {}: {}", p, e.toString());
        }
    }
}
