package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.strata.engine.compress.Codec;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The chunk compression of checkpoint transfers, measured offline over a checkpoint's files:
 * each file cut into 1 MiB chunks and each chunk compressed on its own with zstd at a given
 * level, kept compressed only when that saves at least an eighth (what the server's
 * {@code Chunks.encode} does through {@link Codec#compress}). Only the compression calls are
 * timed, not the reads. Runs on the calling thread.
 */
final class ChunkCompression {
    /** The server's chunk size ({@code Chunks.SIZE}). */
    static final int CHUNK = 1 << 20;

    /**
     * One level's figures.
     *
     * @param wireBytes        bytes after compression, counting a chunk sent raw at its raw size
     * @param compressedChunks chunks that compression shrank by at least an eighth
     * @param mbPerSecond      raw MiB compressed per second of compression time, median of the passes
     * @param passMbPerSecond  every pass's figure, in order
     */
    record Result(int level, long rawBytes, long wireBytes, long chunks, long compressedChunks, double mbPerSecond,
                  List<Double> passMbPerSecond) {
        @JsonProperty
        double wireFraction() {
            return rawBytes == 0 ? 0 : (double) wireBytes / rawBytes;
        }
    }

    private ChunkCompression() {}

    /** Compresses every chunk of {@code files} {@code passes} times at zstd level {@code level}. */
    static Result measure(List<Path> files, int level, int passes) throws IOException {
        byte[] chunk = new byte[CHUNK];
        List<Double> rates = new ArrayList<>();
        long raw = 0;
        long wire = 0;
        long chunks = 0;
        long compressed = 0;
        for (int pass = 0; pass < passes; pass++) {
            raw = 0;
            wire = 0;
            chunks = 0;
            compressed = 0;
            long nanos = 0;
            for (Path f : files) {
                try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
                    long size = in.size();
                    for (long offset = 0; offset < size; offset += CHUNK) {
                        int length = (int) Math.min(CHUNK, size - offset);
                        read(in, offset, chunk, length);
                        long start = System.nanoTime();
                        byte[] out = Codec.ZSTD.compress(chunk, 0, length, level);
                        nanos += System.nanoTime() - start;
                        raw += length;
                        wire += out == null ? length : out.length;
                        chunks++;
                        compressed += out == null ? 0 : 1;
                    }
                }
            }
            rates.add(nanos == 0 ? 0 : raw / (double) (1 << 20) / (nanos / 1e9));
        }
        return new Result(level, raw, wire, chunks, compressed, median(rates), rates);
    }

    private static void read(FileChannel in, long offset, byte[] into, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(into, 0, length);
        while (b.hasRemaining()) {
            if (in.read(b, offset + b.position()) < 0) {
                throw new EOFException("a checkpoint file shrank while it was read");
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
