package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.TxnRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestValidatorTest {
    private final RequestValidator validator = new RequestValidator(new Limits(1000, 100_000, 10, 1000));

    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    private static RequestOp put(String key) {
        return RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b(key))).build();
    }

    @Test
    void valuesOverTheLimitNameTheConfigurationKey() {
        assertThatThrownBy(() -> validator.put(PutRequest.newBuilder().setKey(b("k")).setValue(ByteString.copyFrom(new byte[1001])).build()))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("value is 1001 bytes, the limit is 1000 bytes (strata.server.max-value-size)");
        assertThatCode(() -> validator.put(PutRequest.newBuilder().setKey(b("k")).setValue(ByteString.copyFrom(new byte[1000])).build()))
                .doesNotThrowAnyException();
    }

    @Test
    void requestsOverTheRequestLimitAreRejected() {
        BatchRequest.Builder big = BatchRequest.newBuilder();
        for (int i = 0; i < 200; i++) {
            big.addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("k" + i)).setValue(ByteString.copyFrom(new byte[1000]))));
        }
        assertThatThrownBy(() -> validator.batch(big.build()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("(strata.server.max-request-size)");
    }

    @Test
    void aKeyIsWrittenOncePerBranch() {
        assertThatThrownBy(() -> validator.txn(TxnRequest.newBuilder().addSuccess(put("a")).addSuccess(put("a")).build()))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("success[1] writes key \"a\" a second time in success; a key may be put or deleted once per request");
        RequestOp deleteRange = RequestOp.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("a")).setRangeEnd(b("c"))).build();
        assertThatThrownBy(() -> validator.txn(TxnRequest.newBuilder().addFailure(put("b")).addFailure(deleteRange).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("failure[1] writes key \"b\"");
        assertThatThrownBy(() -> validator.txn(TxnRequest.newBuilder().addFailure(deleteRange).addFailure(put("b")).build()))
                .isInstanceOf(InvalidRequestException.class);
        // The two branches are separate revisions' worth of writes: the same key in each is fine.
        assertThatCode(() -> validator.txn(TxnRequest.newBuilder().addSuccess(put("a")).addFailure(put("a")).build()))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> validator.batch(BatchRequest.newBuilder()
                .addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("k"))))
                .addOps(BatchOp.newBuilder().setDelete(DeleteRequest.newBuilder().setKey(b("k")))).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("ops[1] writes key \"k\"");
    }

    @Test
    void compareOperandMustMatchItsTarget() {
        Compare mismatched = Compare.newBuilder().setKey(b("k")).setTarget(Compare.Target.VERSION).setValue(b("x")).build();
        assertThatThrownBy(() -> validator.txn(TxnRequest.newBuilder().addCompare(mismatched).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessage("compare[0] compares VERSION but sets the value operand");
        Compare existsLess = Compare.newBuilder().setKey(b("k")).setTarget(Compare.Target.EXISTS).setResult(Compare.Result.LESS).build();
        assertThatThrownBy(() -> validator.txn(TxnRequest.newBuilder().addCompare(existsLess).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("EXISTS takes EQUAL");
        Compare emptyKey = Compare.newBuilder().setTarget(Compare.Target.EXISTS).build();
        assertThatThrownBy(() -> validator.txn(TxnRequest.newBuilder().addCompare(emptyKey).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessage("compare[0].key must not be empty");
    }

    @Test
    void negativeLimitsAndBadTokensAreRejected() {
        assertThatThrownBy(() -> validator.range(RangeRequest.newBuilder().setKey(b("a")).setLimit(-1).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessage("limit must not be negative, was -1");
        assertThatThrownBy(() -> validator.range(RangeRequest.newBuilder().setKey(b("a")).setPrefix(true).setPageToken(b("garbage!!!")).build()))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("page_token is malformed");
    }
}
