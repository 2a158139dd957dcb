package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.RangeRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageTokenTest {
    private static final RangeRequest PREFIX_A = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("a")).setPrefix(true).build();
    private static final KeyRange RANGE_A = KeyRange.select(PREFIX_A.getKey(), PREFIX_A.getRangeEnd(), true);

    @Test
    void roundTripsTheResumeKey() {
        ByteString token = PageToken.encode(PREFIX_A, "a17".getBytes());
        assertThat(PageToken.decode(PREFIX_A.toBuilder().setPageToken(token).build(), RANGE_A)).isEqualTo("a17".getBytes());
    }

    @Test
    void aChangedByteFailsTheChecksum() {
        byte[] t = PageToken.encode(PREFIX_A, "a17".getBytes()).toByteArray();
        t[6] ^= 1;
        assertThatThrownBy(() -> PageToken.decode(PREFIX_A.toBuilder().setPageToken(ByteString.copyFrom(t)).build(), RANGE_A))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("page_token is malformed: its checksum");
    }

    @Test
    void aTruncatedTokenIsMalformed() {
        assertThatThrownBy(() -> PageToken.decode(PREFIX_A.toBuilder().setPageToken(ByteString.copyFromUtf8("xy")).build(), RANGE_A))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("shorter than any token");
    }

    @Test
    void aTokenFromAnotherRangeIsRejected() {
        RangeRequest other = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("b")).setPrefix(true).build();
        ByteString token = PageToken.encode(other, "b1".getBytes());
        assertThatThrownBy(() -> PageToken.decode(PREFIX_A.toBuilder().setPageToken(token).build(), RANGE_A))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("another key, range_end or prefix");
    }
}
