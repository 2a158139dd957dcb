package dev.strata.bench;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/** {@code --dir} and {@code --keep}: where a cluster benchmark keeps its nodes' data and logs. */
final class WorkDirectoryOptions {
    @Option(names = "--dir", paramLabel = "DIR",
            description = "Directory of the nodes' data and logs, used as it is and kept (default: a fresh temporary one, "
                    + "deleted after the run).")
    Path dir;

    @Option(names = "--keep", description = "Keep the temporary directory.")
    boolean keep;

    /** The directory to work in: --dir, or a fresh temporary one deleted on close unless --keep. */
    DbDirectory open() throws IOException {
        return DbDirectory.create(dir, keep);
    }
}
