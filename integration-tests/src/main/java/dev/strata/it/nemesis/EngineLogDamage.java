package dev.strata.it.nemesis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A machine crash as the engine's own log sees it: kill -9 of a node, then damage to one of its
 * non-empty engine logs (never fsynced: the server keeps them only to restart without re-applying
 * the Raft log), in one of the ways lost page-cache writes leave it: cut short, one byte
 * flipped, or a 4 KiB page of zeros. Usually the newest log; one time in three any of them, since
 * a restart keeps the logs it replayed until the memtable they fill is flushed, so a crash can
 * hit a log written before an earlier restart. The node must open with the records before the
 * damage and get the rest from the Raft log, which was fsynced and is left whole. Heal starts it
 * again.
 */
public final class EngineLogDamage implements Nemesis {
    private static final int PAGE = 4096;
    /** The engine names its logs by number, {@code 000123.wal} (see the engine's {@code FileNames}). */
    private static final Pattern LOG_NAME = Pattern.compile("(\\d{1,18})\\.wal");
    private long victim;

    @Override
    public String name() {
        return "engine-log-damage";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.anyRunning();
        c.cluster().kill9(victim);
        Path engineDir = c.cluster().dataDir(victim).resolve("engine");
        try {
            List<Path> logs = nonEmptyLogsOldestFirst(engineDir);
            Path log = logs.isEmpty() ? null
                    : c.random().nextInt(3) == 0 ? logs.get(c.random().nextInt(logs.size())) : logs.get(logs.size() - 1);
            if (log == null) {
                return Injection.of("kill -9 node " + victim + " (its engine log was empty: nothing to damage)");
            }
            long size = Files.size(log);
            long at = c.random().nextLong(size);
            String what = switch (c.random().nextInt(3)) {
                case 0 -> {
                    try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
                        ch.truncate(at);
                    }
                    yield "cut at byte " + at;
                }
                case 1 -> {
                    flip(log, at);
                    yield "byte " + at + " flipped";
                }
                default -> {
                    long page = at / PAGE * PAGE;
                    try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
                        ch.write(ByteBuffer.allocate((int) Math.min(PAGE, size - page)), page);
                    }
                    yield "zeros at bytes " + page + "-" + Math.min(page + PAGE, size);
                }
            };
            return Injection.of("kill -9 node " + victim + "; its engine log " + log.getFileName() + " (" + size + " bytes, "
                    + logs.size() + " logs): " + what);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot damage the engine log of node " + victim, e);
        }
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().startNode(victim);
        return "restart node " + victim;
    }

    private static List<Path> nonEmptyLogsOldestFirst(Path engineDir) throws IOException {
        if (!Files.isDirectory(engineDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(engineDir)) {
            List<Path> logs = files.filter(p -> isLog(p) && sizeOf(p) > 0)
                    .sorted(Comparator.comparingLong(EngineLogDamage::logNumber))
                    .toList();
            return logs;
        }
    }

    private static boolean isLog(Path p) {
        return LOG_NAME.matcher(p.getFileName().toString()).matches();
    }

    private static long logNumber(Path log) {
        Matcher m = LOG_NAME.matcher(log.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException(log + " is not an engine log");
        }
        return Long.parseLong(m.group(1));
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x20));
            ch.write(b.rewind(), offset);
        }
    }
}
