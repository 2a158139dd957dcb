package dev.strata.server.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * What a set of small files hold now, to tell whether any changed: per file its length and
 * CRC-32C, or why it could not be read. Content rather than modification times, which are
 * coarse on some file systems and kept by {@code cp -p}; files are followed through symbolic
 * links, so a Kubernetes secret volume swapping its {@code ..data} link counts as a change.
 * Certificates and keys are a few KiB, so reading them at each TLS handshake costs little
 * beside the handshake. Two stamps are equal when the contents are.
 */
record FileStamp(List<String> parts) {
    FileStamp {
        parts = List.copyOf(parts);
    }

    static FileStamp of(List<Path> files) {
        List<String> parts = new ArrayList<>(files.size());
        for (Path f : files) {
            try {
                byte[] bytes = Files.readAllBytes(f);
                CRC32C crc = new CRC32C();
                crc.update(bytes);
                parts.add(bytes.length + "/" + Long.toHexString(crc.getValue()));
            } catch (IOException e) {
                parts.add("unreadable: " + e);
            }
        }
        return new FileStamp(parts);
    }
}
