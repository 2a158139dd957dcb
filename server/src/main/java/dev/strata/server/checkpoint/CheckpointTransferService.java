package dev.strata.server.checkpoint;

import dev.strata.proto.internal.v1.CheckpointTransferGrpc;
import dev.strata.proto.internal.v1.Chunk;
import dev.strata.proto.internal.v1.Plan;
import dev.strata.proto.internal.v1.PlannedFile;
import dev.strata.proto.internal.v1.TransferMessage;
import dev.strata.proto.internal.v1.TransferRequest;
import dev.strata.server.raft.NodeUnavailableException;
import dev.strata.transfer.CheckpointStats;
import dev.strata.transfer.Chunks;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;

/**
 * The sending side of {@code strata.internal.v1.CheckpointTransfer} (internal): plans a transfer, then
 * streams the plan's files in chunks, pausing while the receiver's flow-control window is full
 * so a slow receiver never makes the sender buffer a file in memory. The plan's files stay
 * pinned until the stream ends, however it ends; compaction meanwhile deletes nothing it reads.
 * Each transfer runs on the given executor (it blocks on disk and on the receiver).
 */
public final class CheckpointTransferService extends CheckpointTransferGrpc.CheckpointTransferImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointTransferService.class);

    private final CheckpointSource source;
    private final CheckpointStats stats;
    private final Executor executor;

    public CheckpointTransferService(CheckpointSource source, CheckpointStats stats, Executor executor) {
        this.source = source;
        this.stats = stats;
        this.executor = executor;
    }

    @Override
    public void transfer(TransferRequest request, StreamObserver<TransferMessage> observer) {
        ServerCallStreamObserver<TransferMessage> call = (ServerCallStreamObserver<TransferMessage>) observer;
        FlowControl flow = new FlowControl(call);
        executor.execute(() -> {
            try (PlannedTransfer planned = TransferPlanner.plan(request, source)) {
                stream(planned, call, flow);
            } catch (Cancelled e) {
                LOG.info("checkpoint transfer cancelled by the receiver");
            } catch (NodeUnavailableException e) {
                call.onError(Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException());
            } catch (IOException | RuntimeException e) {
                LOG.warn("checkpoint transfer failed: {}", e.toString(), e);
                call.onError(Status.INTERNAL.withDescription("checkpoint transfer failed: " + e.getMessage()).asRuntimeException());
            }
        });
    }

    private void stream(PlannedTransfer planned, ServerCallStreamObserver<TransferMessage> call, FlowControl flow)
            throws IOException {
        Plan plan = planned.plan();
        (plan.getKind() == Plan.Kind.DELTAS ? stats.deltaPlansServed : stats.fullPlansServed).incrementAndGet();
        long started = System.nanoTime();
        flow.awaitReady();
        call.onNext(TransferMessage.newBuilder().setPlan(plan).build());
        long raw = 0;
        long wire = 0;
        int sent = 0;
        for (int i = 0; i < plan.getFilesCount(); i++) {
            PlannedFile f = plan.getFiles(i);
            if (!f.getSend()) {
                continue;
            }
            sent++;
            Path path = planned.sources().get(i);
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                long size = f.getContent().getSize();
                for (long offset = f.getStartOffset(); offset < size; ) {
                    byte[] buffer = new byte[(int) Math.min(Chunks.SIZE, size - offset)]; // the chunk keeps it
                    int n = readFully(ch, buffer, offset, buffer.length, path);
                    Chunk chunk = Chunks.encode(i, offset, buffer, n);
                    flow.awaitReady();
                    call.onNext(TransferMessage.newBuilder().setChunk(chunk).build());
                    raw += n;
                    wire += chunk.getData().size();
                    stats.sentRawBytes.addAndGet(n);
                    stats.sentWireBytes.addAndGet(chunk.getData().size());
                    offset += n;
                }
            }
        }
        call.onCompleted();
        LOG.info("checkpoint transfer served: plan {} to index {}, {} of {} files sent, {} bytes raw, {} on the wire, {} ms",
                plan.getKind(), plan.getIndex(), sent, plan.getFilesCount(), raw, wire, (System.nanoTime() - started) / 1_000_000);
    }

    private static int readFully(FileChannel ch, byte[] buffer, long offset, int length, Path path) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(buffer, 0, length);
        while (b.hasRemaining()) {
            if (ch.read(b, offset + b.position()) < 0) {
                throw new IOException(path + " ended at " + (offset + b.position()) + ", its content id says longer");
            }
        }
        return length;
    }

    /** Blocks the sending thread while the receiver's window is full; gives up when the call is cancelled. */
    private static final class FlowControl {
        private final ServerCallStreamObserver<?> call;
        private boolean cancelled;

        FlowControl(ServerCallStreamObserver<?> call) {
            this.call = call;
            // Ready while less than this is queued, instead of gRPC's 32 KiB: the next chunks are
            // read and framed while the receiver writes this one, rather than after it.
            call.setOnReadyThreshold(Chunks.IN_FLIGHT * Chunks.SIZE);
            call.setOnReadyHandler(this::wake);
            call.setOnCancelHandler(() -> {
                synchronized (this) {
                    cancelled = true;
                    notifyAll();
                }
            });
        }

        private synchronized void wake() {
            notifyAll();
        }

        synchronized void awaitReady() {
            while (!cancelled && !call.isReady()) {
                try {
                    wait(1000); // isReady may turn true without a callback racing this check: look again
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Cancelled();
                }
            }
            if (cancelled) {
                throw new Cancelled();
            }
        }
    }

    /** The receiver went away; the transfer ends quietly (and unpins). */
    private static final class Cancelled extends RuntimeException {
        Cancelled() {
            super(null, null, false, false);
        }
    }
}
