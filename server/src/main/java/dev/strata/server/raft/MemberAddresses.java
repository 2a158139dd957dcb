package dev.strata.server.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.strata.engine.Engine;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.MemberDirectory;
import dev.strata.proto.internal.v1.MemberRecord;
import dev.strata.server.kv.CommandApplier;
import dev.strata.server.kv.KeySpace;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The replicated member directory as this node has applied it: member id to client address. The
 * engine holds it under {@link KeySpace#members()}; this copy is read at each open and kept in
 * step by the entries that set or remove a member, so that clients and peers can look an
 * address up without a read of the engine.
 */
final class MemberAddresses {
    private final Map<Long, String> addresses = new ConcurrentHashMap<>();

    /** Replaces the directory with the one {@code engine} holds. */
    void reload(Engine engine) throws InvalidProtocolBufferException {
        addresses.clear();
        byte[][] members = KeySpace.members();
        try (KeyValueIterator it = engine.scan(members[0], members[1])) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                MemberRecord m = MemberRecord.parseFrom(kv.value());
                addresses.put(m.getId(), m.getClientAddress());
            }
        }
    }

    /** Follows the member commands of an applied entry: those the applier applied, not those it refused. */
    void applied(List<Command> commands, List<CommandApplier.Outcome> outcomes) {
        for (int i = 0; i < commands.size(); i++) {
            if (!(outcomes.get(i) instanceof CommandApplier.Applied)) {
                continue;
            }
            Command c = commands.get(i);
            switch (c.getOpCase()) {
                case SET_MEMBER -> addresses.put(c.getSetMember().getId(), c.getSetMember().getClientAddress());
                case REMOVE_MEMBER -> addresses.remove(c.getRemoveMember());
                default -> { }
            }
        }
    }

    /** The directory, ordered by member id. */
    MemberDirectory directory() {
        MemberDirectory.Builder b = MemberDirectory.newBuilder();
        addresses.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.addMembers(MemberRecord.newBuilder().setId(e.getKey()).setClientAddress(e.getValue())));
        return b.build();
    }

    /** The client address recorded for {@code id}, or null. */
    String address(long id) {
        return addresses.get(id);
    }
}
