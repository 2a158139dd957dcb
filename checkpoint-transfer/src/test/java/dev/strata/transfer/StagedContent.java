package dev.strata.transfer;

import dev.strata.proto.internal.v1.ContentId;

import java.util.Random;
import java.util.zip.CRC32C;

/** File contents for staging tests, and the content ids a plan would give them. */
final class StagedContent {
    private StagedContent() {}

    /** {@code length} seeded random (incompressible) bytes. */
    static byte[] noise(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** The content id of {@code b}: its size and the CRC32C of all of it. */
    static ContentId idOf(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b);
        return ContentId.newBuilder().setSize(b.length).setCrc32C((int) crc.getValue()).build();
    }
}
