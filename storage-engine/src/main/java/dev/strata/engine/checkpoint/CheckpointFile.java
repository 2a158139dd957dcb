package dev.strata.engine.checkpoint;

/**
 * One file of a checkpoint or delta, as it is shipped: its kind, its name (a table's name is
 * its number in the engine that wrote it; a value log's name is the same everywhere), its level
 * for a table, and its content id.
 *
 * @param level the table's level, or -1 for a value log
 */
public record CheckpointFile(Kind kind, String name, int level, ContentId content) {
    /** The kinds of file a checkpoint holds. */
    public enum Kind { TABLE, VALUE_LOG }
}
