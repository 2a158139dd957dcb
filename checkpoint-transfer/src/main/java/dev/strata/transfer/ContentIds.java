package dev.strata.transfer;

import dev.strata.proto.internal.v1.ContentId;

/** The engine's content id of a checkpoint file as the transfer's messages carry it. */
public final class ContentIds {
    private ContentIds() {}

    public static ContentId toProto(dev.strata.engine.checkpoint.ContentId c) {
        return ContentId.newBuilder().setSize(c.size()).setCrc32C(c.crc()).build();
    }
}
