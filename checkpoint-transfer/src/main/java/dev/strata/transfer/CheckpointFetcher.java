package dev.strata.transfer;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.MalformedDataException;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.proto.internal.v1.CheckpointTransferGrpc;
import dev.strata.proto.internal.v1.Chunk;
import dev.strata.proto.internal.v1.ContentId;
import dev.strata.proto.internal.v1.Plan;
import dev.strata.proto.internal.v1.PlannedFile;
import dev.strata.proto.internal.v1.TransferMessage;
import dev.strata.proto.internal.v1.TransferRequest;
import io.grpc.ChannelCredentials;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The receiving side of a checkpoint transfer: asks a sender for a plan, streams the files it
 * lacks into a {@link StagingArea}, checks every chunk's CRC and every finished file's content
 * id, and links what it already holds instead of receiving it. When a stream breaks (the
 * sender died, a chunk was corrupt, nothing arrived for {@code idleTimeout}), it asks again,
 * naming what it has staged since, so finished files are not sent again and an unfinished one
 * resumes where it stopped; the sender is looked up anew each time, so a leader change simply
 * leads to a new plan from the new leader. Not thread-safe: one fetch at a time.
 */
public final class CheckpointFetcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointFetcher.class);
    /** Space left free beside the files, so the install itself (a manifest, a flush) has room. */
    private static final long DISK_MARGIN = 64L << 20;

    /**
     * What to fetch.
     *
     * @param appliedIndex the receiver holds every write up to this index
     * @param hasState     false for an empty receiver (only a full checkpoint fits)
     * @param fresh        ask the sender to take a checkpoint now
     * @param minIndex     refuse a plan that ends before this index (a stale checkpoint)
     * @param reusable     files the receiver already has, by content
     */
    public record Request(long appliedIndex, boolean hasState, boolean fresh, long minIndex, Map<ContentId, Path> reusable) {}

    /** The receiver lacks the disk space the plan needs; asking again will not help. */
    public static final class InsufficientSpaceException extends IOException {
        InsufficientSpaceException(String message) {
            super(message);
        }
    }

    private final StagingArea staging;
    private final CheckpointStats stats;
    private final int maxAttempts;
    private final Duration idleTimeout;
    private final ChannelCredentials credentials;
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    /** Where received files are fsynced while the next ones stream in (see {@link FinishingFiles}). */
    private final ExecutorService fsyncs = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "strata-checkpoint-fsync");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "strata-checkpoint-watchdog");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param credentials how to reach senders' client ports: plaintext, or TLS as the cluster's
     *                    client ports serve it
     */
    public CheckpointFetcher(StagingArea staging, CheckpointStats stats, int maxAttempts, Duration idleTimeout,
                             ChannelCredentials credentials) {
        this.staging = staging;
        this.credentials = credentials;
        this.stats = stats;
        this.maxAttempts = maxAttempts;
        this.idleTimeout = idleTimeout;
    }

    /**
     * Fetches a plan and all its files, asking {@code sender} for the address to fetch from
     * (null: none known yet) before each attempt.
     *
     * @throws IOException when every attempt failed (the last failure is the cause), or at once
     *         when the disk is too small ({@link InsufficientSpaceException})
     */
    public StagedCheckpoint fetch(Request request, Supplier<String> sender) throws IOException {
        long started = System.nanoTime();
        Progress progress = new Progress();
        boolean fresh = request.fresh();
        Exception last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            progress.attempts = attempt;
            String address = sender.get();
            try {
                if (address == null || address.isEmpty()) {
                    throw new IOException("no sender known yet (no leader with a client address)");
                }
                StagedCheckpoint staged = attempt(address, request, fresh, progress, started);
                LOG.info("checkpoint fetched from {}: {}", address, staged.report());
                return staged;
            } catch (InsufficientSpaceException e) {
                throw e;
            } catch (StalePlanException e) {
                fresh = true; // that sender's latest checkpoint is older than needed: ask for a new one
                last = e;
            } catch (Chunks.CorruptChunkException e) {
                stats.corruptChunks.incrementAndGet();
                progress.corrupt++;
                last = e;
            } catch (CorruptionException e) {
                last = e; // a finished file did not match its content id: it is fetched again
            } catch (IOException | StatusRuntimeException | MalformedDataException e) {
                last = e;
            }
            LOG.warn("checkpoint fetch attempt {} of {} from {} failed: {}", attempt, maxAttempts, address, last.toString());
            if (!(last instanceof Chunks.CorruptChunkException) && attempt < maxAttempts) {
                sleep(Math.min(5_000, 100L << Math.min(attempt, 6)));
            }
        }
        throw new IOException("fetching a checkpoint failed after " + maxAttempts + " attempts: " + last.getMessage(), last);
    }

    private StagedCheckpoint attempt(String address, Request request, boolean fresh, Progress progress, long started)
            throws IOException {
        TransferRequest.Builder rb = TransferRequest.newBuilder().setAppliedIndex(request.appliedIndex())
                .setHasState(request.hasState()).setFresh(fresh);
        request.reusable().keySet().forEach(rb::addHeld);
        staging.complete().keySet().stream().filter(c -> !request.reusable().containsKey(c)).forEach(rb::addHeld);
        rb.addAllPartial(staging.partials());
        Context.CancellableContext call = Context.current().withCancellation();
        AtomicLong lastMessage = new AtomicLong(System.nanoTime());
        ScheduledFuture<?> idleCheck = watchdog.scheduleWithFixedDelay(() -> {
            if (System.nanoTime() - lastMessage.get() > idleTimeout.toNanos()) {
                call.cancel(new IOException("nothing received for " + idleTimeout.toMillis() + " ms"));
            }
        }, 1, 1, TimeUnit.SECONDS);
        Context previous = call.attach();
        try {
            Iterator<TransferMessage> stream = CheckpointTransferGrpc.newBlockingStub(channel(address)).transfer(rb.build());
            TransferMessage first = stream.next();
            lastMessage.set(System.nanoTime());
            if (!first.hasPlan()) {
                throw new IOException("the sender's first message is not a plan");
            }
            Plan plan = first.getPlan();
            if (plan.getIndex() < request.minIndex()) {
                throw new StalePlanException("the plan reaches index " + plan.getIndex() + ", " + request.minIndex() + " is needed");
            }
            checkDisk(plan);
            receive(plan, stream, lastMessage, progress, new FetchProgress(address, plan, stats, System.nanoTime()));
            for (PlannedFile f : plan.getFilesList()) {
                if (!f.getSend() && !staging.complete().containsKey(f.getContent())) {
                    Path local = request.reusable().get(f.getContent());
                    if (local == null) {
                        throw new IOException("the plan counts on " + f.getName() + " being here, and it is not");
                    }
                    staging.adopt(f.getContent(), local);
                    progress.reused++;
                    stats.filesReused.incrementAndGet();
                }
            }
            return stage(plan, progress, started);
        } finally {
            call.detach(previous);
            call.cancel(null);
            idleCheck.cancel(false);
        }
    }

    private void receive(Plan plan, Iterator<TransferMessage> stream, AtomicLong lastMessage, Progress progress,
                         FetchProgress shown) throws IOException {
        int file = -1;
        long expected = 0;
        PartFile out = null;
        FinishingFiles finishing = new FinishingFiles(staging, fsyncs);
        try {
            while (stream.hasNext()) {
                TransferMessage m = stream.next();
                lastMessage.set(System.nanoTime());
                if (!m.hasChunk()) {
                    throw new IOException("a second plan in one stream");
                }
                Chunk c = m.getChunk();
                if (c.getFile() != file) {
                    if (out != null) {
                        throw new IOException("file " + plan.getFiles(file).getName() + " ended at " + expected + " of "
                                + plan.getFiles(file).getContent().getSize() + " bytes");
                    }
                    if (c.getFile() >= plan.getFilesCount() || !plan.getFiles(c.getFile()).getSend()) {
                        throw new IOException("a chunk of file " + c.getFile() + ", which the plan does not send");
                    }
                    file = c.getFile();
                    expected = plan.getFiles(file).getStartOffset();
                    out = staging.openPart(plan.getFiles(file).getContent(), expected);
                }
                if (c.getOffset() != expected) {
                    throw new IOException("chunk at offset " + c.getOffset() + " of " + plan.getFiles(file).getName()
                            + ", expected " + expected);
                }
                ByteBuffer raw = Chunks.decode(c);
                int length = raw.remaining();
                out.append(raw);
                expected += length;
                progress.raw += length;
                progress.wire += c.getData().size();
                stats.receivedRawBytes.addAndGet(length);
                stats.receivedWireBytes.addAndGet(c.getData().size());
                PlannedFile f = plan.getFiles(file);
                boolean fileDone = expected == f.getContent().getSize();
                if (fileDone) {
                    PartFile done = out;
                    out = null;
                    finishing.finish(f.getContent(), done);
                    progress.received++;
                    stats.filesReceived.incrementAndGet();
                }
                shown.received(length, fileDone, System.nanoTime());
            }
            finishing.awaitAll();
        } catch (IOException | RuntimeException e) {
            finishing.awaitAfter(e);
            throw e;
        } finally {
            if (out != null) {
                out.close(); // the verified prefix stays for the next attempt
            }
        }
        for (PlannedFile f : plan.getFilesList()) {
            if (f.getSend() && !staging.complete().containsKey(f.getContent())) {
                throw new IOException("the stream ended before " + f.getName() + " was complete");
            }
        }
    }

    private void checkDisk(Plan plan) throws IOException {
        long needed = 0;
        for (PlannedFile f : plan.getFilesList()) {
            if (f.getSend() && !staging.complete().containsKey(f.getContent())) {
                needed += f.getContent().getSize() - f.getStartOffset();
            }
        }
        long free = Files.getFileStore(staging.directory()).getUsableSpace();
        if (free < needed + DISK_MARGIN) {
            throw new InsufficientSpaceException("the " + plan.getKind() + " plan needs " + needed + " bytes (+" + DISK_MARGIN
                    + " spare) in " + staging.directory() + ", only " + free + " are free");
        }
    }

    private StagedCheckpoint stage(Plan plan, Progress progress, long started) throws IOException {
        Path dir = staging.assemble("ready", plan.getFilesList());
        CheckpointManifest manifest = null;
        List<Delta> deltas = new ArrayList<>();
        if (plan.getKind() == Plan.Kind.FULL) {
            manifest = CheckpointManifest.decode(plan.getCheckpointManifest().toByteArray());
            manifest.writeTo(dir);
        } else if (plan.getKind() == Plan.Kind.DELTAS) {
            for (var d : plan.getDeltasList()) {
                deltas.add(Delta.decode(d.toByteArray()));
            }
        } else {
            throw new IOException("plan of unknown kind " + plan.getKindValue());
        }
        TransferReport report = new TransferReport(plan.getKind(), plan.getSenderId(), progress.received, progress.reused,
                progress.raw, progress.wire, progress.corrupt, progress.attempts, Duration.ofNanos(System.nanoTime() - started));
        return new StagedCheckpoint(plan.getKind(), plan.getTerm(), plan.getIndex(), dir, manifest, deltas, report);
    }

    private ManagedChannel channel(String address) {
        // A window of several chunks (gRPC's default is one MiB, a single chunk) lets the sender
        // send the next chunks while this node writes one, instead of waiting on each.
        return channels.computeIfAbsent(address, a -> NettyChannelBuilder.forTarget(a, credentials)
                .flowControlWindow(Chunks.IN_FLIGHT * (Chunks.SIZE + (64 << 10)))
                .maxInboundMessageSize(2 * Chunks.SIZE + (64 << 10))
                .build());
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching a checkpoint", e);
        }
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        fsyncs.shutdown();
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }

    /** Counts over all attempts of one fetch. */
    private static final class Progress {
        int attempts;
        int received;
        int reused;
        int corrupt;
        long raw;
        long wire;
    }

    /** The sender's checkpoint is older than the receiver needs. */
    private static final class StalePlanException extends IOException {
        StalePlanException(String message) {
            super(message);
        }
    }
}
