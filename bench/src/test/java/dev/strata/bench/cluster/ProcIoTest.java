package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcIoTest {
    /** A real /proc/PID/io's shape: rchar and wchar count every read and write, read_bytes and write_bytes storage. */
    private static final String IO = """
            rchar: 5120041
            wchar: 987654321
            syscr: 1234
            syscw: 5678
            read_bytes: 4096
            write_bytes: 123469824
            cancelled_write_bytes: 8192
            """;

    @Test
    void readsWriteBytesNotWcharNorCancelledBytes() {
        assertThat(ProcIo.writeBytes(IO)).isEqualTo(123_469_824L);
    }

    @Test
    void refusesTextWithoutTheLine() {
        assertThatThrownBy(() -> ProcIo.writeBytes("rchar: 1\nwchar: 2\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("write_bytes");
    }

    /** The build directory, on a disk: a tmpfs /tmp has no storage to count writes against. */
    @Test
    void readsThisProcessAndGrowsWhenItWritesAFile() throws IOException {
        long pid = ProcessHandle.current().pid();
        long before = ProcIo.writeBytes(pid);
        Path file = Files.createTempFile(Path.of(System.getProperty("user.dir")), "procio", ".bin");
        try {
            Files.write(file, new byte[1 << 20]);
            assertThat(ProcIo.writeBytes(pid)).isGreaterThanOrEqualTo(before + (1 << 20));
        } finally {
            Files.delete(file);
        }
    }
}
