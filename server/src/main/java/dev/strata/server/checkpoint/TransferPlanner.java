package dev.strata.server.checkpoint;

import com.google.protobuf.ByteString;
import dev.strata.engine.Checkpoint;
import dev.strata.engine.DeltaChain;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.proto.internal.v1.ContentId;
import dev.strata.proto.internal.v1.PartialFile;
import dev.strata.proto.internal.v1.Plan;
import dev.strata.proto.internal.v1.PlannedFile;
import dev.strata.proto.internal.v1.TransferRequest;
import dev.strata.server.raft.AppliedMarker;
import dev.strata.transfer.ContentIds;
import org.apache.ratis.server.protocol.TermIndex;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides what a receiver gets. {@code DELTAS} when the incremental chain covers the span from
 * the receiver's index to the latest checkpoint and its files (those the receiver lacks) weigh
 * no more than the checkpoint's; {@code FULL} otherwise: every file of the latest checkpoint.
 * Either way a file the receiver holds by content is listed but not sent, and a partial one is
 * sent from where the receiver stopped. The plan's files are pinned before it is returned.
 */
final class TransferPlanner {
    /** Attempts to pin a latest checkpoint that a newer one may retire meanwhile. */
    private static final int PIN_ATTEMPTS = 5;

    private TransferPlanner() {}

    static PlannedTransfer plan(TransferRequest request, CheckpointSource source) {
        Set<ContentId> held = new HashSet<>(request.getHeldList());
        Map<ContentId, Long> partial = new HashMap<>();
        for (PartialFile p : request.getPartialList()) {
            partial.put(p.getContent(), p.getOffset());
        }
        Checkpoint checkpoint = pinLatest(source, request.getFresh());
        DeltaChain chain = source.deltaChain();
        List<Delta> deltas = null;
        if (request.getHasState()) {
            chain.pin(); // before asking, so the deltas it names cannot be released meanwhile
            // The first delta may start before the receiver's index: its engine leaves out at ingest
            // the writes it already holds.
            deltas = chain.covering(request.getAppliedIndex(), checkpoint.sequence());
            if (deltas != null && bytesToSend(deltaFiles(deltas), held) > bytesToSend(checkpoint.files(), held)) {
                deltas = null; // compaction since left the checkpoint smaller than the deltas
            }
            if (deltas == null) {
                chain.unpin();
            }
        }
        Plan.Builder plan = Plan.newBuilder().setSenderId(source.nodeId());
        List<Path> sources = new ArrayList<>();
        Runnable unpin;
        if (deltas != null) {
            checkpoint.unpin();
            plan.setKind(Plan.Kind.DELTAS);
            TermIndex end = deltas.isEmpty() ? TermIndex.valueOf(0, request.getAppliedIndex())
                    : termIndex(deltas.get(deltas.size() - 1).appliedMarker(), deltas.get(deltas.size() - 1).toInclusive());
            plan.setTerm(end.getTerm()).setIndex(end.getIndex());
            for (Delta d : deltas) {
                plan.addDeltas(ByteString.copyFrom(d.encode()));
            }
            addFiles(plan, sources, deltaFiles(deltas), chain::path, held, partial);
            unpin = chain::unpin;
        } else {
            plan.setKind(Plan.Kind.FULL);
            TermIndex at = termIndex(checkpoint.appliedMarker(), checkpoint.sequence());
            plan.setTerm(at.getTerm()).setIndex(at.getIndex());
            plan.setCheckpointManifest(ByteString.copyFrom(checkpoint.manifest().encode()));
            addFiles(plan, sources, checkpoint.files(), checkpoint::path, held, partial);
            unpin = checkpoint::unpin;
        }
        return new PlannedTransfer(plan.build(), sources, unpin);
    }

    private static Checkpoint pinLatest(CheckpointSource source, boolean fresh) {
        for (int attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
            Checkpoint c = source.checkpoint(fresh && attempt == 0);
            if (c.tryPin()) {
                return c;
            }
        }
        throw new IllegalStateException("the latest checkpoint was retired " + PIN_ATTEMPTS + " times while being pinned");
    }

    /** The (term, index) a marker names; a checkpoint written without one (an engine outside Raft) has term 0. */
    private static TermIndex termIndex(byte[] marker, long sequence) {
        TermIndex ti = AppliedMarker.decode(marker);
        return ti != null ? ti : TermIndex.valueOf(0, sequence);
    }

    private static List<CheckpointFile> deltaFiles(List<Delta> deltas) {
        List<CheckpointFile> out = new ArrayList<>();
        deltas.forEach(d -> out.addAll(d.files()));
        return out;
    }

    private static long bytesToSend(List<CheckpointFile> files, Set<ContentId> held) {
        return files.stream().filter(f -> !held.contains(ContentIds.toProto(f.content()))).mapToLong(f -> f.content().size()).sum();
    }

    private static void addFiles(Plan.Builder plan, List<Path> sources, List<CheckpointFile> files,
                                 Function<CheckpointFile, Path> pathOf, Set<ContentId> held, Map<ContentId, Long> partial) {
        for (CheckpointFile f : files) {
            ContentId content = ContentIds.toProto(f.content());
            boolean send = !held.contains(content);
            long start = send ? Math.min(partial.getOrDefault(content, 0L), f.content().size()) : 0;
            plan.addFiles(PlannedFile.newBuilder().setName(f.name()).setContent(content).setSend(send).setStartOffset(start));
            sources.add(pathOf.apply(f));
        }
    }
}
