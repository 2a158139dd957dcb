package dev.strata.server.raft;

import dev.strata.server.config.ServerConfig;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.retry.ExponentialBackoffRetry;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Ratis properties of a node, derived from its {@link ServerConfig}. Each setting that
 * differs from Ratis' default says why (see notes/ratis.md for the defaults).
 */
final class RaftSettings {
    private static final long MiB = 1 << 20;
    /** Room for Ratis' own framing (client id, call id, term, index) around the largest request. */
    private static final long ENTRY_OVERHEAD = MiB;
    /** How far ahead of its writes Ratis fills a log segment with zeros: one page. */
    static final long LOG_PREALLOCATION = 4096;
    private static final long BASE_SLEEP_MS = 50;
    private static final long MAX_SLEEP_MS = 1000;

    private RaftSettings() {}

    static RaftProperties properties(ServerConfig c) {
        RaftProperties p = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(p, List.of(c.raftDir().toFile()));
        // Ratis's gRPC transport with a corrected log appender (see SnapshotAwareLogAppender).
        RaftConfigKeys.Rpc.setType(p, StrataGrpcFactory.TYPE);
        GrpcConfigKeys.Server.setHost(p, c.bindAddress());
        GrpcConfigKeys.Server.setPort(p, c.raftListenPort());

        // Checkpoints are shipped by our own service, never by Ratis' built-in copy of every
        // file: notify mode. Every peer must agree, or followers answer CONF_MISMATCH.
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, false);
        // No snapshots of Ratis' own: the state machine takes a checkpoint every so many entries or
        // bytes, off the apply thread, and then asks Ratis to purge (see CheckpointScheduler).
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, false);
        // Purge at every snapshot rather than every 1024 entries when snapshots are more frequent.
        RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(1024, c.snapshotThresholdEntries()));
        // Purge up to the snapshot even past a stopped follower's commit index: a dead member must
        // not make the log grow without bound. It catches up from a shipped checkpoint instead.
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        // Ratis appends a metadata entry (the commit index) after every commit by default, so a lone
        // survivor could apply committed entries. Strata recovers from the engine's durable marker
        // and the leader's log instead, and the extra entry costs a replicated append and fsync.
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(c.logSegmentSize()));
        // Ratis keeps the entries of up to 6 closed segments (200 MB) on the heap by default, beside
        // the open one, for followers that fall behind. Under steady writes that filled the old
        // generation of a 512 MiB node and cost full collections: keep one closed segment; a
        // follower further behind reads the log files.
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(p, 1);
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(p, SizeInBytes.valueOf(Math.max(c.logSegmentSize(), 16 * MiB)));
        // A retried batch of writes is answered from the retry cache; a batch is retried only
        // within the request timeout, so its replies need not stay 60 s (Ratis's default) on the heap.
        RaftServerConfigKeys.RetryCache.setExpiryTime(p, duration(c.requestTimeout().multipliedBy(2)));
        // Ratis preallocates a segment by writing zeros through the page cache. With 4 MiB at a time
        // the next fsync wrote those zeros to the disk and the entries then overwrote them, so every
        // byte of the log reached the disk twice (a 16 KiB put: 140 KiB of device writes across the
        // three nodes instead of 99). One page ahead at most, the zeros and the entries that follow
        // them share a dirty page and reach the disk once; an fsync then also records the file's
        // new length, which measured no slower.
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(LOG_PREALLOCATION));
        // A write the disk refused halfway (full, or a file-size limit) leaves a torn entry before
        // the open segment's zero-filled preallocation; by default Ratis then refuses to start, so
        // a node that ran out of space could never come back. Keep the entries before the first
        // unreadable one instead, as etcd repairs its WAL's torn tail: the torn entry was never
        // acknowledged (its fsync failed), and the leader sends it again. Ratis logs a warning
        // naming the segment and the count of entries kept.
        RaftServerConfigKeys.Log.setCorruptionPolicy(p, RaftServerConfigKeys.Log.CorruptionPolicy.WARN_AND_RETURN);
        // Ratis 3.3.0 chains a follower's appends into one future when this is on (the default).
        // One failed link fails every later one with the same exception, without running it: a
        // follower whose append once lost a race (appends from an old and a new stream after a
        // connection reset, "Already running a method by ...") refuses every append from then on,
        // from every leader, and stays behind for good. Seen in the fault-injection soak. Off,
        // each append stands alone and a lost race fails only that request, which the leader
        // sends again.
        RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(p, false);

        // Ratis's appender waits at least this long after sending before it sends again (1 ms by
        // default), to gather entries. The proposer gathers writes into entries already, and the
        // wait hit a lone write whenever the commit-index update of the previous one had just
        // gone out: up to a millisecond more per write.
        RaftServerConfigKeys.Log.Appender.setWaitTimeMin(p, TimeDuration.ZERO);

        // How long the appender sleeps after each failed send to a follower: 1 ms for the first
        // 10 failures, then 100 ms for 20, then 500 ms (Ratis's default: 1 s, then 5 s). A
        // follower that is down costs a connection attempt per sleep; one that comes back was
        // left waiting up to 5 s before the leader tried it again, so a restarted node needed
        // about 15 s to catch up after a failover.
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, "1ms,10, 100ms,20, 500ms,1000000");

        // The largest entry must fit every buffer on its way: the appender asserts an entry is
        // no larger than its byte limit, the log writer's buffer must hold it, and the gRPC
        // transport must carry an append of it.
        long entryLimit = c.maxRequestSize() + ENTRY_OVERHEAD;
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(entryLimit));
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(entryLimit + 64 * 1024));
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(Math.max(64 * MiB, entryLimit + 8 * MiB)));
        // An append may carry that much, and Ratis lets 8 be outstanding per follower: under large
        // values and a follower slower than the leader, 200 MB on its way to one follower filled
        // the heaps of 512 MiB nodes (OutOfMemoryError, 16 KiB values, 256 in flight). Two
        // outstanding appends still keep the pipe full: each carries many batches.
        GrpcConfigKeys.Server.setLeaderOutstandingAppendsMax(p, 2);

        // The default read option is leader-local and not linearizable: ReadIndex instead.
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, c.leaderLease());
        RaftServerConfigKeys.Read.setTimeout(p, duration(c.requestTimeout()));

        // Ratis' 150-300 ms election timeout flaps on a loaded machine (GC, shared cores).
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, duration(c.electionTimeout()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, duration(c.electionTimeout().multipliedBy(2)));
        // A node that just started has no leader to wait for: it campaigns after a quarter to a
        // half of the timeout instead, so a cluster restarted whole elects as soon as two members
        // are up. It cannot unseat a live leader by it: pre-vote (on by default) is refused by
        // members that heard from their leader within the timeout.
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, duration(c.electionTimeout().dividedBy(4)));
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, duration(c.electionTimeout().dividedBy(2)));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, duration(c.raftRequestTimeout()));

        RaftClientConfigKeys.Rpc.setRequestTimeout(p, duration(c.raftRequestTimeout()));
        // Every gRPC request in flight on this node may be a Raft request; the default of 100
        // would block request threads under load.
        RaftClientConfigKeys.Async.setOutstandingRequestsMax(p, 4096);
        return p;
    }

    /**
     * How writes are batched into log entries: {@code strata.raft.write-batches-in-flight}
     * batches at once at most, each of at most {@code strata.raft.write-batch-max-writes} writes
     * and 256 KiB (a larger write goes alone, up to the largest request, which the limits
     * {@link #properties} sets admit). A batch's bytes are copied whole several times on their way
     * (encoded, logged, applied as one engine batch); arrays over half a G1 region (512 KiB in a
     * 512 MiB heap) are allocated straight in the old generation, and 4 MiB batches of 16 KiB
     * values drove 512 MiB nodes into back-to-back full collections.
     */
    static Proposer.Limits proposerLimits(ServerConfig c) {
        return new Proposer.Limits(c.writeBatchesInFlight(), c.writeBatchMaxWrites(), Math.min(256 * 1024, c.maxRequestSize()), c.requestTimeout(),
                c.maxQueuedWriteBytes());
    }

    /**
     * How the node's Raft client retries a request forwarded to the leader: exponential backoff
     * from 50 ms to 1 s, with as many attempts as fit in about 80% of the server's request
     * timeout even when every sleep comes out at its longest. So a leader election (a few
     * seconds) is ridden out, and when no leader appears the client gets UNAVAILABLE (retryable,
     * with a leader hint) before the request would time out, never Ratis' default
     * retry-forever, which looks like a hang.
     */
    static RetryPolicy clientRetryPolicy(Duration requestTimeout) {
        long budget = requestTimeout.toMillis() * 8 / 10;
        int attempts = 1;
        // Ratis sleeps base * 2^attempt after the attempt-th failure, from attempt 1, randomized
        // to 0.5x-1.5x: counting each at 1.5x leaves the attempts themselves the rest of the budget.
        for (long sleep = 2 * BASE_SLEEP_MS, slept = 0; slept + sleep * 3 / 2 <= budget;
             sleep = Math.min(2 * sleep, MAX_SLEEP_MS)) {
            slept += sleep * 3 / 2;
            attempts++;
        }
        return ExponentialBackoffRetry.newBuilder()
                .setBaseSleepTime(TimeDuration.valueOf(BASE_SLEEP_MS, TimeUnit.MILLISECONDS))
                .setMaxSleepTime(TimeDuration.valueOf(MAX_SLEEP_MS, TimeUnit.MILLISECONDS))
                .setMaxAttempts(attempts)
                .build();
    }

    private static TimeDuration duration(Duration d) {
        return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
    }
}
