package dev.strata.server.checkpoint;

import dev.strata.proto.internal.v1.Plan;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A plan with where the sender reads each of its files; its files stay pinned until
 * {@link #close()}.
 *
 * @param sources per plan file, its path on the sender
 */
record PlannedTransfer(Plan plan, List<Path> sources, Runnable unpin, AtomicBoolean closed) implements AutoCloseable {
    PlannedTransfer(Plan plan, List<Path> sources, Runnable unpin) {
        this(plan, List.copyOf(sources), unpin, new AtomicBoolean());
    }

    /** Bytes the stream carries (before compression): the files sent, from their start offsets. */
    long bytesToSend() {
        return plan.getFilesList().stream().filter(f -> f.getSend())
                .mapToLong(f -> f.getContent().getSize() - f.getStartOffset()).sum();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            unpin.run();
        }
    }
}
