package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.RangeRequest;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The opaque {@code next_page_token} of a range page: where the next page starts, bound to
 * the request that produced it. Layout:
 * <pre>
 *   [format: 1 byte = 1][request fingerprint: 4][resume key: rest - 4][crc32c of all before: 4]
 * </pre>
 * The fingerprint is a CRC32C of the request's key, range_end and prefix, so a token cannot
 * be replayed against a different range by mistake; the trailing CRC catches truncated or
 * edited tokens. Tokens hold nothing secret (only a key the caller may read anyway), so they
 * are checked, not signed.
 */
final class PageToken {
    private static final byte FORMAT = 1;
    private static final int OVERHEAD = 1 + 4 + 4;

    private PageToken() {}

    static ByteString encode(RangeRequest request, byte[] resumeKey) {
        ByteBuffer b = ByteBuffer.allocate(OVERHEAD + resumeKey.length);
        b.put(FORMAT).putInt(fingerprint(request)).put(resumeKey);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        return ByteString.copyFrom(b.array());
    }

    /**
     * The key the next page starts at (inclusive).
     *
     * @throws InvalidRequestException naming what is wrong with the token
     */
    static byte[] decode(RangeRequest request, KeyRange range) {
        byte[] t = request.getPageToken().toByteArray();
        if (t.length < OVERHEAD) {
            throw malformed("it is " + t.length + " bytes, shorter than any token");
        }
        CRC32C crc = new CRC32C();
        crc.update(t, 0, t.length - 4);
        ByteBuffer b = ByteBuffer.wrap(t);
        if (b.getInt(t.length - 4) != (int) crc.getValue()) {
            throw malformed("its checksum does not match (was it changed or cut?)");
        }
        if (b.get() != FORMAT) {
            throw malformed("unknown format " + t[0]);
        }
        if (b.getInt() != fingerprint(request)) {
            throw malformed("it belongs to a request with another key, range_end or prefix");
        }
        byte[] resume = new byte[t.length - OVERHEAD];
        b.get(resume);
        if (!range.contains(resume)) {
            throw malformed("its resume key " + Keys.describe(resume) + " is outside " + range);
        }
        return resume;
    }

    private static InvalidRequestException malformed(String why) {
        return new InvalidRequestException("page_token is malformed: " + why
                + "; pass next_page_token from the previous page unchanged, with the same key, range_end and prefix");
    }

    private static int fingerprint(RangeRequest r) {
        CRC32C crc = new CRC32C();
        ByteBuffer lengths = ByteBuffer.allocate(9).putInt(r.getKey().size()).putInt(r.getRangeEnd().size())
                .put((byte) (r.getPrefix() ? 1 : 0));
        crc.update(lengths.array());
        crc.update(r.getKey().asReadOnlyByteBuffer());
        crc.update(r.getRangeEnd().asReadOnlyByteBuffer());
        return (int) crc.getValue();
    }
}
