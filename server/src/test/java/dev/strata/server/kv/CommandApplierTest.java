package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.WalMode;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.BatchResponse;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.DeleteResponse;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.TxnRequest;
import dev.strata.proto.v1.TxnResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The key-value rules on a real engine, one revision per applied command, as the state machine drives them. */
class CommandApplierTest {
    private static final Limits LIMITS = new Limits(1 << 20, 2 << 20, 100, 1 << 20);

    @TempDir
    Path dir;
    private Engine engine;
    private final KvReader reader = new KvReader(LIMITS);
    private final CommandApplier applier = new CommandApplier(reader);
    private long revision;

    @BeforeEach
    void open() {
        engine = Engine.open(dir, EngineOptions.builder().walMode(WalMode.DISABLED).build());
    }

    @AfterEach
    void close() {
        engine.close();
    }

    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    private MessageLite apply(Command c) {
        CommandApplier.Result r = applier.apply(EngineView.of(engine), c, ++revision);
        engine.write(r.batch());
        return r.response();
    }

    private PutResponse put(String key, String value) {
        return (PutResponse) apply(Command.newBuilder().setPut(PutRequest.newBuilder().setKey(b(key)).setValue(b(value)).setPrevKv(true)).build());
    }

    private KeyValue get(String key) {
        var r = reader.get(EngineView.of(engine), GetRequest.newBuilder().setKey(b(key)).build(), revision);
        return r.hasKv() ? r.getKv() : null;
    }

    @Test
    void revisionsAndVersionsFollowEtcd() {
        put("a", "1");
        assertThat(get("a")).isEqualTo(KeyValue.newBuilder().setKey(b("a")).setValue(b("1"))
                .setCreateRevision(1).setModRevision(1).setVersion(1).build());
        put("b", "x");
        PutResponse second = put("a", "2");
        assertThat(second.getHeader().getRevision()).isEqualTo(3);
        assertThat(second.getPrevKv().getValue()).isEqualTo(b("1"));
        assertThat(get("a")).extracting(KeyValue::getCreateRevision, KeyValue::getModRevision, KeyValue::getVersion)
                .containsExactly(1L, 3L, 2L);

        apply(Command.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("a"))).build());
        assertThat(get("a")).isNull();
        put("a", "3");
        // A delete ends the key's life: the next put creates it anew.
        assertThat(get("a")).extracting(KeyValue::getCreateRevision, KeyValue::getModRevision, KeyValue::getVersion)
                .containsExactly(5L, 5L, 1L);
    }

    @Test
    void deleteByRangeAndByPrefixReturnsWhatItDeleted() {
        for (String k : new String[] {"p/1", "p/2", "p/3", "q/1", "r"}) {
            put(k, "v" + k);
        }
        DeleteResponse byPrefix = (DeleteResponse) apply(Command.newBuilder()
                .setDelete(DeleteRequest.newBuilder().setKey(b("p/")).setPrefix(true).setPrevKv(true)).build());
        assertThat(byPrefix.getDeleted()).isEqualTo(3);
        assertThat(byPrefix.getPrevKvsList()).extracting(KeyValue::getKey).containsExactly(b("p/1"), b("p/2"), b("p/3"));
        DeleteResponse byRange = (DeleteResponse) apply(Command.newBuilder()
                .setDelete(DeleteRequest.newBuilder().setKey(b("q")).setRangeEnd(b("r"))).build());
        assertThat(byRange.getDeleted()).isEqualTo(1);
        assertThat(byRange.getPrevKvsCount()).isZero();
        assertThat(get("r")).isNotNull();
        DeleteResponse none = (DeleteResponse) apply(Command.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("zzz"))).build());
        assertThat(none.getDeleted()).isZero();
    }

    private TxnResponse txn(Compare compare) {
        return (TxnResponse) apply(Command.newBuilder().setTxn(TxnRequest.newBuilder().addCompare(compare)
                .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("won")).setValue(b("yes"))))
                .addFailure(RequestOp.newBuilder().setRange(RangeRequest.newBuilder().setKey(b("k"))))).build());
    }

    @Test
    void txnComparesEachTargetAndRunsTheMatchingBranch() {
        put("k", "m");                                   // revision 1, version 1
        put("k", "n");                                   // revision 2, version 2
        Compare.Builder c = Compare.newBuilder().setKey(b("k"));
        assertThat(txn(c.clone().setTarget(Compare.Target.VALUE).setResult(Compare.Result.EQUAL).setValue(b("n")).build()).getSucceeded()).isTrue();
        assertThat(txn(c.clone().setTarget(Compare.Target.VALUE).setResult(Compare.Result.GREATER).setValue(b("m")).build()).getSucceeded()).isTrue();
        assertThat(txn(c.clone().setTarget(Compare.Target.VALUE).setResult(Compare.Result.LESS).setValue(b("m")).build()).getSucceeded()).isFalse();
        assertThat(txn(c.clone().setTarget(Compare.Target.VERSION).setResult(Compare.Result.EQUAL).setVersion(2).build()).getSucceeded()).isTrue();
        assertThat(txn(c.clone().setTarget(Compare.Target.VERSION).setResult(Compare.Result.NOT_EQUAL).setVersion(2).build()).getSucceeded()).isFalse();
        assertThat(txn(c.clone().setTarget(Compare.Target.CREATE_REVISION).setResult(Compare.Result.EQUAL).setCreateRevision(1).build()).getSucceeded()).isTrue();
        assertThat(txn(c.clone().setTarget(Compare.Target.MOD_REVISION).setResult(Compare.Result.LESS).setModRevision(2).build()).getSucceeded()).isFalse();
        assertThat(txn(c.clone().setTarget(Compare.Target.EXISTS).setResult(Compare.Result.EQUAL).build()).getSucceeded()).isTrue();
        Compare absent = Compare.newBuilder().setKey(b("absent")).build();
        assertThat(txn(absent.toBuilder().setTarget(Compare.Target.EXISTS).setResult(Compare.Result.NOT_EQUAL).build()).getSucceeded()).isTrue();
        // etcd: an absent key has version and revisions 0, and no value compare holds on it.
        assertThat(txn(absent.toBuilder().setTarget(Compare.Target.VERSION).setResult(Compare.Result.EQUAL).setVersion(0).build()).getSucceeded()).isTrue();
        assertThat(txn(absent.toBuilder().setTarget(Compare.Target.VALUE).setResult(Compare.Result.NOT_EQUAL).setValue(b("x")).build()).getSucceeded()).isFalse();

        TxnResponse failed = txn(c.clone().setTarget(Compare.Target.MOD_REVISION).setResult(Compare.Result.GREATER).setModRevision(99).build());
        assertThat(failed.getSucceeded()).isFalse();
        assertThat(failed.getResponses(0).getRange().getKvs(0).getValue()).isEqualTo(b("n"));
    }

    @Test
    void aTxnRangeSeesTheTxnsOwnEarlierWrites() {
        put("t/1", "old");
        TxnResponse r = (TxnResponse) apply(Command.newBuilder().setTxn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("t/2")).setValue(b("new"))))
                .addSuccess(RequestOp.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("t/1"))))
                .addSuccess(RequestOp.newBuilder().setRange(RangeRequest.newBuilder().setKey(b("t/")).setPrefix(true)))).build());
        assertThat(r.getSucceeded()).isTrue();
        assertThat(r.getResponses(2).getRange().getKvsList()).extracting(KeyValue::getKey).containsExactly(b("t/2"));
        assertThat(r.getResponses(2).getRange().getKvs(0).getModRevision()).isEqualTo(r.getHeader().getRevision());
        assertThat(get("t/1")).isNull();
    }

    @Test
    void batchAppliesEveryOperationInOneRevision() {
        put("x", "0");
        BatchResponse r = (BatchResponse) apply(Command.newBuilder().setBatch(BatchRequest.newBuilder()
                .addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("y")).setValue(b("1"))))
                .addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("z")).setValue(b("2"))))
                .addOps(BatchOp.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("x"))))).build());
        assertThat(r.getResponsesCount()).isEqualTo(3);
        assertThat(get("y").getModRevision()).isEqualTo(2);
        assertThat(get("z").getModRevision()).isEqualTo(2);
        assertThat(get("x")).isNull();
    }

    @Test
    void rangePagesByCountAndByBytes() {
        for (int i = 0; i < 10; i++) {
            put(String.format("r%02d", i), "v".repeat(100));
        }
        RangeRequest all = RangeRequest.newBuilder().setKey(b("r")).setPrefix(true).setLimit(4).build();
        RangeResponse p1 = reader.range(EngineView.of(engine), all, revision);
        assertThat(p1.getKvsList()).extracting(KeyValue::getKey).containsExactly(b("r00"), b("r01"), b("r02"), b("r03"));
        assertThat(p1.getCount()).isEqualTo(4);
        RangeResponse p2 = reader.range(EngineView.of(engine), all.toBuilder().setPageToken(p1.getNextPageToken()).build(), revision);
        assertThat(p2.getKvs(0).getKey()).isEqualTo(b("r04"));
        RangeResponse p3 = reader.range(EngineView.of(engine), all.toBuilder().setPageToken(p2.getNextPageToken()).build(), revision);
        assertThat(p3.getKvsList()).extracting(KeyValue::getKey).containsExactly(b("r08"), b("r09"));
        assertThat(p3.getNextPageToken()).isEmpty();

        // Each entry is about 115 bytes serialized: a 300-byte page holds two.
        KvReader small = new KvReader(new Limits(1 << 20, 2 << 20, 100, 300));
        RangeResponse byBytes = small.range(EngineView.of(engine), all.toBuilder().clearLimit().build(), revision);
        assertThat(byBytes.getKvsCount()).isEqualTo(2);
        assertThat(byBytes.getNextPageToken()).isNotEmpty();
        // A page always holds one entry, even one larger than the byte bound.
        KvReader tiny = new KvReader(new Limits(1 << 20, 2 << 20, 100, 1));
        assertThat(tiny.range(EngineView.of(engine), all, revision).getKvsCount()).isEqualTo(1);

        RangeResponse count = reader.range(EngineView.of(engine), all.toBuilder().setCountOnly(true).build(), revision);
        assertThat(count.getCount()).isEqualTo(10);
        assertThat(count.getKvsCount()).isZero();
        RangeResponse keys = reader.range(EngineView.of(engine), all.toBuilder().setKeysOnly(true).build(), revision);
        assertThat(keys.getKvs(0).getValue()).isEmpty();
        assertThat(keys.getKvs(0).getVersion()).isEqualTo(1);
    }

    private static Command putCommand(String key, String value) {
        return Command.newBuilder().setPut(PutRequest.newBuilder().setKey(b(key)).setValue(b(value)).setPrevKv(true)).build();
    }

    @Test
    void theCommandsOfOneEntryTakeSuccessiveRevisionsAndSeeEachOthersWrites() {
        put("x", "0"); // revision 1
        CommandApplier.EntryResult r = applier.applyEntry(EngineView.of(engine), java.util.List.of(
                putCommand("x", "1"),
                putCommand("x", "2"),
                Command.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("x")).setPrevKv(true)).build(),
                putCommand("y", "3")), 1);
        engine.write(r.batch());
        revision = r.revision();

        assertThat(r.revision()).isEqualTo(5);
        assertThat(r.outcomes()).allSatisfy(o -> assertThat(o).isInstanceOf(CommandApplier.Applied.class));
        PutResponse second = (PutResponse) ((CommandApplier.Applied) r.outcomes().get(1)).response();
        assertThat(second.getHeader().getRevision()).isEqualTo(3);
        assertThat(second.getPrevKv().getValue().toStringUtf8()).as("the entry's earlier write").isEqualTo("1");
        assertThat(second.getPrevKv().getVersion()).isEqualTo(2);
        DeleteResponse deleted = (DeleteResponse) ((CommandApplier.Applied) r.outcomes().get(2)).response();
        assertThat(deleted.getDeleted()).isEqualTo(1);
        assertThat(deleted.getPrevKvs(0).getModRevision()).isEqualTo(3);
        assertThat(get("x")).isNull();
        assertThat(get("y").getModRevision()).isEqualTo(5);
        assertThat(get("y").getCreateRevision()).isEqualTo(5);
    }

    @Test
    void aRefusedCommandWritesNothingAndTakesNoRevisionWhileTheOthersApply() {
        Command badToken = Command.newBuilder().setTxn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("lost")).setValue(b("v"))))
                .addSuccess(RequestOp.newBuilder().setRange(RangeRequest.newBuilder().setKey(b("a")).setRangeEnd(b("z"))
                        .setPageToken(b("not a token"))))).build();
        CommandApplier.EntryResult r = applier.applyEntry(EngineView.of(engine), java.util.List.of(
                putCommand("a", "1"), badToken, putCommand("b", "2")), 0);
        engine.write(r.batch());
        revision = r.revision();

        assertThat(r.outcomes().get(1)).isInstanceOf(CommandApplier.Refused.class);
        assertThat(r.revision()).isEqualTo(2);
        assertThat(get("lost")).as("the refused txn's own put is dropped with it").isNull();
        assertThat(get("b").getModRevision()).isEqualTo(2);
    }

    @Test
    void memberRecordsTakeNoRevision() {
        CommandApplier.EntryResult r = applier.applyEntry(EngineView.of(engine), java.util.List.of(
                Command.newBuilder().setSetMember(dev.strata.proto.internal.v1.MemberRecord.newBuilder().setId(4).setClientAddress("h:1")).build(),
                putCommand("m", "1"),
                Command.newBuilder().setRemoveMember(5).build()), 10);
        engine.write(r.batch());
        assertThat(r.revision()).isEqualTo(11);
        assertThat(engine.get(KeySpace.member(4))).isNotNull();
        assertThat(engine.get(KeySpace.member(5))).isNull();
    }
}
