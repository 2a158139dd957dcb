package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

/**
 * The baseline a checkpoint transfer is compared with: a plain copy of a directory's files over
 * one loopback TCP connection, no compression, no checks. A sender streams each file with
 * {@link FileChannel#transferTo} (sendfile); a receiver writes it through a
 * 1 MiB buffer and fsyncs it once it is complete, as a transfer must before
 * it uses a file. The stream is, per file, its name's length (an int), its name in UTF-8 and its
 * size (a long), then its bytes; a name length of -1 ends it.
 */
final class LoopbackCopy {
    /** The receiver's read size: as large as the transfer's chunks. */
    private static final int BUFFER = 1 << 20;

    /** What one copy moved, and how long it took from connecting to the last fsync. */
    record Result(long files, long bytes, double seconds) {
        @JsonProperty
        double mbPerSecond() {
            return seconds == 0 ? 0 : bytes / (double) (1 << 20) / seconds;
        }
    }

    private LoopbackCopy() {}

    /** Copies every regular file directly in {@code source} into {@code target}, which must not hold them yet. */
    static Result copy(Path source, Path target) throws IOException, InterruptedException {
        List<Path> files;
        try (Stream<Path> list = Files.list(source)) {
            files = list.filter(Files::isRegularFile).sorted().toList();
        }
        Files.createDirectories(target);
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            long start = System.nanoTime();
            CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> {
                try (SocketChannel in = listener.accept()) {
                    return receive(in, target);
                } catch (IOException e) {
                    throw new IllegalStateException("the copy's receiver failed", e);
                }
            });
            try (SocketChannel out = SocketChannel.open(listener.getLocalAddress())) {
                for (Path f : files) {
                    send(out, f);
                }
                writeFully(out, ByteBuffer.allocate(Integer.BYTES).putInt(0, -1));
            }
            long bytes = received.get();
            return new Result(files.size(), bytes, (System.nanoTime() - start) / 1e9);
        } catch (ExecutionException e) {
            throw new IOException("the copy's receiver failed", e.getCause());
        }
    }

    private static void send(SocketChannel out, Path file) throws IOException {
        byte[] name = file.getFileName().toString().getBytes(StandardCharsets.UTF_8);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = in.size();
            ByteBuffer header = ByteBuffer.allocate(Integer.BYTES + name.length + Long.BYTES);
            header.putInt(name.length).put(name).putLong(size).flip();
            writeFully(out, header);
            for (long sent = 0; sent < size; ) {
                sent += in.transferTo(sent, size - sent, out);
            }
        }
    }

    /** Receives files until the end marker; returns the bytes of file data received. */
    private static long receive(SocketChannel in, Path target) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
        long total = 0;
        while (true) {
            int nameLength = readFully(in, ByteBuffer.allocate(Integer.BYTES)).getInt();
            if (nameLength < 0) {
                return total;
            }
            ByteBuffer rest = readFully(in, ByteBuffer.allocate(nameLength + Long.BYTES));
            byte[] name = new byte[nameLength];
            rest.get(name);
            long size = rest.getLong();
            try (FileChannel out = FileChannel.open(target.resolve(new String(name, StandardCharsets.UTF_8)),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                for (long left = size; left > 0; ) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), left));
                    if (in.read(buffer) < 0) {
                        throw new EOFException("the sender stopped " + left + " bytes short of a file");
                    }
                    left -= buffer.position();
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                }
                out.force(true);
            }
            total += size;
        }
    }

    private static void writeFully(SocketChannel out, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    private static ByteBuffer readFully(SocketChannel in, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (in.read(b) < 0) {
                throw new EOFException("the sender closed the stream early");
            }
        }
        return b.flip();
    }
}
