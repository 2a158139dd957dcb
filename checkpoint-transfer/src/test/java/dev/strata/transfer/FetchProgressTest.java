package dev.strata.transfer;

import dev.strata.proto.internal.v1.ContentId;
import dev.strata.proto.internal.v1.Plan;
import dev.strata.proto.internal.v1.PlannedFile;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class FetchProgressTest {
    private static final long MIB = 1 << 20;

    private static PlannedFile file(long size, boolean send, long startOffset) {
        return PlannedFile.newBuilder().setName("f").setContent(ContentId.newBuilder().setSize(size))
                .setSend(send).setStartOffset(startOffset).build();
    }

    /** 10 MiB sent whole, 4 MiB held already, 8 MiB of which 2 MiB are staged from an earlier attempt. */
    private static final Plan PLAN = Plan.newBuilder().setIndex(120)
            .addFiles(file(10 * MIB, true, 0))
            .addFiles(file(4 * MIB, false, 0))
            .addFiles(file(8 * MIB, true, 2 * MIB))
            .build();

    @Test
    void thePlanSendsWhatTheReceiverDoesNotHold() {
        assertThat(FetchProgress.plannedBytes(PLAN)).isEqualTo(16 * MIB);
    }

    @Test
    void progressCountsBytesFilesAndRateIntoTheGauges() {
        CheckpointStats stats = new CheckpointStats();
        FetchProgress p = new FetchProgress("n1:7100", PLAN, stats, 0);
        assertThat(stats.fetchPlannedBytes.get()).isEqualTo(16 * MIB);
        assertThat(stats.fetchReceivedBytes.get()).isZero();

        p.received(10 * MIB, true, TimeUnit.SECONDS.toNanos(1));
        p.received(2 * MIB, false, TimeUnit.SECONDS.toNanos(2));

        assertThat(stats.fetchReceivedBytes.get()).isEqualTo(12 * MIB);
        assertThat(p.describe(TimeUnit.SECONDS.toNanos(2))).isEqualTo("12.0 of 16.0 MiB (75%), 6.0 MiB/s, 1 of 2 files");
    }

    @Test
    void aPlanThatSendsNothingIsDoneAtOnce() {
        Plan held = Plan.newBuilder().addFiles(file(4 * MIB, false, 0)).build();
        FetchProgress p = new FetchProgress("n1:7100", held, new CheckpointStats(), 0);
        assertThat(p.describe(TimeUnit.SECONDS.toNanos(1))).startsWith("0.0 of 0.0 MiB (100%)");
    }
}
