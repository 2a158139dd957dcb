package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.util.Directories;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * {@code CURRENT}, the one file that names the live manifest. It is replaced, never rewritten in
 * place, so a crash leaves it naming either the old manifest or the new one.
 */
final class CurrentFile {
    private CurrentFile() {
    }

    /** The number of the manifest {@code CURRENT} in {@code dir} names. */
    static long read(Path dir) throws IOException {
        Path currentFile = dir.resolve(FileNames.CURRENT);
        String name = Files.readString(currentFile, StandardCharsets.UTF_8);
        FileNames.Parsed parsed = name.endsWith("\n") ? FileNames.parse(name.substring(0, name.length() - 1)) : null;
        if (parsed == null || parsed.kind() != FileNames.Kind.MANIFEST) {
            throw new CorruptionException(currentFile, 0, "CURRENT does not name a manifest: '" + name.strip() + "'");
        }
        return parsed.number();
    }

    /** Points CURRENT at a manifest: write a temporary file, fsync, rename, fsync the directory. */
    static void publish(Path dir, long manifest, long tempNumber) throws IOException {
        Path tmp = FileNames.temp(dir, tempNumber);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap((FileNames.manifest(dir, manifest).getFileName() + "\n")
                    .getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(FileNames.CURRENT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.sync(dir);
    }
}
