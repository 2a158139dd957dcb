package dev.strata.engine.checkpoint;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.wal.LogReader;
import dev.strata.engine.wal.LogWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of deltas, one checksummed record each, in the engine's log format: how the engine keeps
 * its chain of deltas (appended to: {@link #read}), and how a backup keeps the deltas it saved
 * (written whole: {@link #readWhole}). Damage is a {@link CorruptionException}.
 */
public final class DeltaLog {
    private DeltaLog() {}

    /** Writes {@code deltas} to a new file and fsyncs it; the file must not exist. */
    public static void write(Path file, List<Delta> deltas) throws IOException {
        try (LogWriter w = LogWriter.create(file)) {
            for (Delta d : deltas) {
                w.addRecord(d.encode());
            }
            w.sync();
        }
    }

    /**
     * The deltas in {@code file}, in the order they were written, for a file that is appended to:
     * a torn last record (a crash while appending) ends the list.
     *
     * @throws CorruptionException when a record is damaged or is not a delta
     */
    public static List<Delta> read(Path file) throws IOException {
        return read(file, true);
    }

    /**
     * The deltas in a file written whole by {@link #write} and published only after its fsync, so
     * a torn tail is damage, not an interrupted append: reading on would return fewer deltas than
     * were written.
     *
     * @throws CorruptionException when a record is damaged, is not a delta, or the file ends torn
     */
    public static List<Delta> readWhole(Path file) throws IOException {
        return read(file, false);
    }

    private static List<Delta> read(Path file, boolean tornTailEnds) throws IOException {
        List<Delta> out = new ArrayList<>();
        try (LogReader r = new LogReader(file)) {
            for (byte[] rec; (rec = r.next()) != null; ) {
                try {
                    out.add(Delta.decode(rec));
                } catch (ByteReader.MalformedException e) {
                    throw new CorruptionException(file, r.validLength(), "delta record malformed: " + e.getMessage());
                }
            }
            if (r.tornTail() && !tornTailEnds) {
                throw new CorruptionException(file, r.validLength(), "the file ends torn (" + r.tornTailReason()
                        + ") although it was written whole");
            }
        }
        return out;
    }
}
