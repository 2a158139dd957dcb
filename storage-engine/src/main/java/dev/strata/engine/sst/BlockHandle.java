package dev.strata.engine.sst;

import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;

/** Where a block's stored bytes are in a table file: offset and size, trailer excluded. */
record BlockHandle(long offset, long size) {
    void encodeTo(ByteSink out) {
        out.putVarint(offset).putVarint(size);
    }

    static BlockHandle decodeFrom(ByteReader in) {
        return new BlockHandle(in.getVarint(), in.getVarint());
    }
}
