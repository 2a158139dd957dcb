package dev.strata.engine.memtable;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.key.ValueType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A memtable built by {@link MemTableLoader} is the one adding the same writes one by one builds. */
class MemTableLoaderTest {
    private static byte[] key(int i) {
        return String.format("k%04d", i).getBytes();
    }

    private static List<String> contents(MemTable mem) {
        List<String> out = new ArrayList<>();
        try (InternalIterator it = mem.iterator()) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                out.add(InternalKey.describe(it.key()) + "=" + new String(it.value()));
            }
        }
        return out;
    }

    @Test
    void buildsTheSameMemtableAsAddingOneByOne() {
        Random random = new Random(7);
        MemTable oneByOne = new MemTable(5);
        MemTableLoader loader = new MemTableLoader();
        long sequence = 1;
        for (int i = 0; i < 5_000; i++, sequence++) {
            byte[] key = key(random.nextInt(700)); // many versions of each key, in no order of keys
            boolean delete = random.nextInt(5) == 0;
            ValueType type = delete ? ValueType.DELETION : ValueType.VALUE;
            byte[] value = delete ? null : ("v" + sequence).getBytes();
            oneByOne.add(sequence, type, key, value);
            loader.add(sequence, type, key, value);
        }
        oneByOne.noteSequence(sequence + 3); // a marker-only batch after the last write
        loader.noteSequence(sequence + 3);
        oneByOne.setAppliedMarker("m".getBytes());
        loader.setAppliedMarker("m".getBytes());

        MemTable built = loader.build(5);

        assertThat(contents(built)).containsExactlyElementsOf(contents(oneByOne)).hasSize(5_000);
        assertThat(built.size()).isEqualTo(5_000);
        assertThat(built.approximateBytes()).isEqualTo(oneByOne.approximateBytes());
        assertThat(built.largestSequence()).isEqualTo(sequence + 3);
        assertThat(built.appliedMarker()).isEqualTo("m".getBytes());
        assertThat(built.walNumber()).isEqualTo(5);
        for (int k = 0; k < 700; k++) {
            Lookup expected = oneByOne.get(key(k), sequence / 2);
            Lookup actual = built.get(key(k), sequence / 2);
            assertThat(actual.state()).isEqualTo(expected.state());
            assertThat(actual.sequence()).isEqualTo(expected.sequence());
        }
    }

    @Test
    void theLastOfTwoWritesWithOneInternalKeyWins() {
        MemTableLoader loader = new MemTableLoader();
        loader.add(9, ValueType.VALUE, key(1), "first".getBytes());
        loader.add(9, ValueType.VALUE, key(2), "other".getBytes());
        loader.add(9, ValueType.VALUE, key(1), "second".getBytes());

        MemTable built = loader.build(1);

        assertThat(contents(built)).containsExactly(
                InternalKey.describe(MemTable.internalKey(9, ValueType.VALUE, key(1))) + "=second",
                InternalKey.describe(MemTable.internalKey(9, ValueType.VALUE, key(2))) + "=other");
        assertThat(built.approximateBytes())
                .isEqualTo(MemTable.entrySize(MemTable.internalKey(9, ValueType.VALUE, key(1)), "second".getBytes())
                        + MemTable.entrySize(MemTable.internalKey(9, ValueType.VALUE, key(2)), "other".getBytes()));
    }

    @Test
    void anEmptyLoadBuildsAnEmptyMemtableThatTakesWrites() {
        MemTable built = new MemTableLoader().build(3);

        assertThat(built.isEmpty()).isTrue();
        built.add(1, ValueType.VALUE, key(1), "v".getBytes());
        assertThat(contents(built)).hasSize(1);
    }
}
