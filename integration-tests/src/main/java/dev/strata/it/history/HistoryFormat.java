package dev.strata.it.history;

/**
 * The names and constants of the history file, shared by {@link HistoryWriter} and
 * {@link HistoryReader}. The layout and the meaning of each field are in
 * {@code integration-tests/docs/history-format.md}.
 */
final class HistoryFormat {
    /** The value of {@link #FORMAT}, which tells a history file from other JSON. */
    static final String FORMAT_NAME = "strata-history";
    /** Version 1: the layout of the format document. */
    static final int VERSION = 1;

    static final String FORMAT = "format";
    static final String FORMAT_VERSION = "version";
    static final String RUN = "run";
    static final String OPERATIONS = "operations";

    static final String SEED = "seed";
    static final String NEMESES = "nemeses";
    static final String NODE_COUNT = "node_count";
    static final String STARTED_EPOCH_NANOS = "started_epoch_nanos";
    static final String DURATION_NANOS = "duration_nanos";
    static final String FAULT_EVENTS = "fault_events";
    static final String AT_NANOS = "at_nanos";
    static final String DESCRIPTION = "description";

    static final String ID = "id";
    static final String CLIENT = "client";
    static final String KIND = "kind";
    static final String KEY = "key";
    static final String RANGE_END = "range_end";
    static final String VALUE = "value";
    static final String EXPECTED = "expected";
    static final String CONSISTENCY = "consistency";
    static final String NODE = "node";
    static final String INVOKED_NANOS = "invoked_nanos";
    static final String COMPLETED_NANOS = "completed_nanos";
    static final String OUTCOME = "outcome";
    static final String READ_VALUE = "read_value";
    static final String RANGE_RESULT = "range_result";
    static final String CAS_SUCCEEDED = "cas_succeeded";
    static final String HEADER_REVISION = "header_revision";
    static final String MOD_REVISION = "mod_revision";
    static final String ERROR = "error";

    private HistoryFormat() {}
}
