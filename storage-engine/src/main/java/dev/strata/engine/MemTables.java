package dev.strata.engine;

import dev.strata.engine.memtable.MemTable;

import java.util.List;

/** The active and frozen memtables, newest first, as one immutable view. */
record MemTables(MemTable mem, List<MemTable> immsNewestFirst) {}
