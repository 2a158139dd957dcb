package dev.strata.server.raft;

import dev.strata.proto.internal.v1.ProposalResult;
import dev.strata.proto.internal.v1.ProposalResults;
import dev.strata.server.kv.CommandApplier;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

import java.util.List;

/**
 * The reply to a {@code proposals} log entry: each command's outcome, in order. The leader
 * hands it to a proposer in the same process as it is; it is encoded as
 * {@link ProposalResults} only when it crosses the network (a forwarded batch) or a retry
 * finds it in Ratis's retry cache. Thread-safe.
 */
final class OutcomesMessage implements Message {
    private final List<CommandApplier.Outcome> outcomes;
    private volatile ByteString content;

    OutcomesMessage(List<CommandApplier.Outcome> outcomes) {
        this.outcomes = List.copyOf(outcomes);
    }

    List<CommandApplier.Outcome> outcomes() {
        return outcomes;
    }

    @Override
    public ByteString getContent() {
        ByteString c = content;
        if (c == null) {
            ProposalResults.Builder b = ProposalResults.newBuilder();
            for (CommandApplier.Outcome o : outcomes) {
                b.addResults(switch (o) {
                    case CommandApplier.Applied a -> ProposalResult.newBuilder().setResponse(a.response().toByteString());
                    case CommandApplier.Refused r -> ProposalResult.newBuilder().setInvalid(r.cause().getMessage());
                });
            }
            c = UnsafeByteOperations.unsafeWrap(b.build().toByteArray());
            content = c;
        }
        return c;
    }

    @Override
    public String toString() {
        return "Outcomes(" + outcomes.size() + ")";
    }
}
