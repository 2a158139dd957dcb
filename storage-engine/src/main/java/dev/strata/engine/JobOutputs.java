package dev.strata.engine;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.sst.TableBuilder;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValueLogs;
import dev.strata.engine.vlog.ValueSeparator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * How flushes, compactions and ingests write their outputs: the options of a new L0 table, and
 * a value separator per job that tells the event listener about each value-log file it creates.
 */
final class JobOutputs {
    private static final Logger LOG = LoggerFactory.getLogger(JobOutputs.class);
    private final EngineOptions options;
    private final VersionSet versions;
    private final ValueLogs valueLogs;

    JobOutputs(EngineOptions options, VersionSet versions, ValueLogs valueLogs) {
        this.options = options;
        this.versions = versions;
        this.valueLogs = valueLogs;
    }

    /** How a new L0 table (a flush's, a rewritten ingested one) is written over {@code base}. */
    TableBuilder.Options level0TableOptions(Version base, CompressionPolicy p) {
        return new TableBuilder.Options(options.blockSize(), options.blockRestartInterval(), options.bloomBitsPerKey(),
                p.codecFor(0, base.deepestNonEmptyLevel() <= 0), p.zstdLevel());
    }

    /**
     * A value separator for one flush or compaction job that compresses values with {@code codec}
     * and, if {@code recompress}, recompresses the provisional records it relocates.
     */
    ValueSeparator valueSeparator(Set<ValueLogId> relocate, CompressionPolicy p, ValueLogFileCreated.Job job,
                                             Codec codec, boolean recompress) {
        return new ValueSeparator(valueLogs.directory(), versions.origin(), versions::newPendingOutput,
                versions::releasePendingOutput, valueLogs,
                options.valueLogEnabled() ? options.minBlobSize() : Integer.MAX_VALUE, relocate, codec,
                p.zstdLevel(), p.provisionalCodec(), recompress, options.valueLogFileSize(),
                (file, relocated) -> tellListener(new ValueLogFileCreated(file.id().fileName(), file.fileSize(), file.entries(), job, relocated)));
    }

    /** A listener's failure is its own: logged, and the job goes on. */
    private void tellListener(ValueLogFileCreated event) {
        try {
            options.eventListener().onValueLogFileCreated(event);
        } catch (RuntimeException e) {
            LOG.warn("event listener failed on {}", event, e);
        }
    }
}
