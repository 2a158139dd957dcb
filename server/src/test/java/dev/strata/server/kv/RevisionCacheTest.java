package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;
import dev.strata.engine.WalMode;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.TxnRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The revision cache answers as the engine would, forgets what it must, and stays bounded. */
class RevisionCacheTest {
    private static final Limits LIMITS = new Limits(1 << 20, 2 << 20, 100, 1 << 20);

    @TempDir
    Path dir;

    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsTheMostRecentlyUsedKeysUpToItsCapacity() {
        RevisionCache cache = new RevisionCache(2);
        cache.put(k("a"), new RevisionCache.Revisions(1, 1, 1));
        cache.put(k("b"), new RevisionCache.Revisions(2, 2, 1));
        assertThat(cache.get(k("a"))).as("a fresh array with the same bytes finds the entry").isNotNull();
        cache.put(k("c"), new RevisionCache.Revisions(3, 3, 1));

        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get(k("b"))).as("least recently used").isNull();
        assertThat(cache.get(k("a"))).isEqualTo(new RevisionCache.Revisions(1, 1, 1));
        assertThat(cache.get(k("c"))).isEqualTo(new RevisionCache.Revisions(3, 3, 1));
    }

    @Test
    void recordsAnEntrysPutsAndForgetsItsDeletes() {
        RevisionCache cache = new RevisionCache(16);
        cache.put(k("gone"), new RevisionCache.Revisions(1, 1, 1));
        Map<byte[], StoredValue> writes = new LinkedHashMap<>();
        writes.put(k("new"), new StoredValue(7, 9, 3, ByteString.copyFromUtf8("v")));
        writes.put(k("gone"), null);

        cache.record(writes);

        assertThat(cache.get(k("new"))).isEqualTo(new RevisionCache.Revisions(7, 9, 3));
        assertThat(cache.get(k("gone"))).isNull();
    }

    @Test
    void aCachedKeyIsAnsweredWithoutReadingTheEngine() {
        try (Engine engine = Engine.open(dir, EngineOptions.builder().walMode(WalMode.DISABLED).build())) {
            RevisionCache cache = new RevisionCache(16);
            engine.put(KeySpace.data(k("x")), new StoredValue(4, 4, 1, ByteString.copyFromUtf8("v")).encode());
            EngineView view = EngineView.of(engine, cache);
            assertThat(view.revisions(k("x"))).as("a miss reads the engine").isEqualTo(new RevisionCache.Revisions(4, 4, 1));
            assertThat(cache.get(k("x"))).as("and fills the cache").isEqualTo(new RevisionCache.Revisions(4, 4, 1));

            // Only the apply thread writes, through record(); a write behind its back shows the cache answering.
            engine.put(KeySpace.data(k("x")), new StoredValue(4, 8, 2, ByteString.copyFromUtf8("w")).encode());
            assertThat(view.revisions(k("x"))).isEqualTo(new RevisionCache.Revisions(4, 4, 1));
            assertThat(EngineView.of(engine).revisions(k("x"))).isEqualTo(new RevisionCache.Revisions(4, 8, 2));
        }
    }

    /**
     * The same random entries applied with a small cache (so keys are evicted and read back) and
     * without one give the same responses and the same engine contents.
     */
    @Test
    void applyingWithTheCacheGivesTheSameResultsAsWithout() {
        try (Engine cached = Engine.open(dir.resolve("cached"), EngineOptions.builder().walMode(WalMode.DISABLED).build());
             Engine plain = Engine.open(dir.resolve("plain"), EngineOptions.builder().walMode(WalMode.DISABLED).build())) {
            CommandApplier applier = new CommandApplier(new KvReader(LIMITS));
            RevisionCache cache = new RevisionCache(8);
            Random random = new Random(20261127);
            long revisionCached = 0;
            long revisionPlain = 0;
            for (int entry = 0; entry < 400; entry++) {
                List<Command> commands = new ArrayList<>();
                int n = 1 + random.nextInt(6);
                for (int i = 0; i < n; i++) {
                    commands.add(randomCommand(random));
                }
                CommandApplier.EntryResult withCache = applier.applyEntry(EngineView.of(cached, cache), commands, revisionCached);
                cached.write(withCache.batch());
                cache.record(withCache.writes());
                revisionCached = withCache.revision();
                CommandApplier.EntryResult without = applier.applyEntry(EngineView.of(plain), commands, revisionPlain);
                plain.write(without.batch());
                revisionPlain = without.revision();

                assertThat(revisionCached).isEqualTo(revisionPlain);
                assertThat(responses(withCache)).as("entry %d", entry).isEqualTo(responses(without));
            }
            assertThat(contents(cached)).isEqualTo(contents(plain)).isNotEmpty();
            for (int key = 0; key < 20; key++) {
                byte[] user = k("key-" + key);
                RevisionCache.Revisions known = cache.get(user);
                if (known != null) {
                    assertThat(known).as("cached revisions of key-%d", key).isEqualTo(EngineView.of(plain).revisions(user));
                }
            }
        }
    }

    private static Command randomCommand(Random random) {
        ByteString key = ByteString.copyFromUtf8("key-" + random.nextInt(20));
        ByteString value = ByteString.copyFromUtf8("v" + random.nextInt(1000));
        return switch (random.nextInt(5)) {
            case 0, 1 -> Command.newBuilder().setPut(PutRequest.newBuilder().setKey(key).setValue(value)).build();
            case 2 -> Command.newBuilder().setPut(PutRequest.newBuilder().setKey(key).setValue(value).setPrevKv(true)).build();
            case 3 -> Command.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(key).setPrevKv(random.nextBoolean()))
                    .build();
            default -> Command.newBuilder().setTxn(TxnRequest.newBuilder()
                    .addCompare(Compare.newBuilder().setKey(key).setTarget(Compare.Target.VERSION)
                            .setResult(Compare.Result.GREATER).setVersion(random.nextInt(4)))
                    .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(key).setValue(value)))
                    .addFailure(RequestOp.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(key)))).build();
        };
    }

    private static List<MessageLite> responses(CommandApplier.EntryResult r) {
        List<MessageLite> out = new ArrayList<>();
        for (CommandApplier.Outcome o : r.outcomes()) {
            out.add(((CommandApplier.Applied) o).response());
        }
        return out;
    }

    private static Map<String, String> contents(Engine engine) {
        Map<String, String> out = new LinkedHashMap<>();
        try (KeyValueIterator it = engine.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                out.put(new String(kv.key(), StandardCharsets.ISO_8859_1), new String(kv.value(), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }
}
