package dev.strata.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@code strata txn} accepts and how it says what is wrong; running txns is tested against a cluster. */
class TxnScriptTest {
    @Test
    void etcdctlShapedScriptsParse() {
        assertThatCode(() -> TxnScript.parse(List.of(
                "mod(\"config\") > 5", "val(\"owner\") != \"me\"", "ver(\"a b\") = 0", "create(\"x\") < \"7\"", "",
                "put config \"new value\"", "get owner", "get a/ --prefix", "del a z", "",
                "get config"))).doesNotThrowAnyException();
        assertThatCode(() -> TxnScript.parse(List.of())).as("an empty txn runs its empty success branch")
                .doesNotThrowAnyException();
    }

    @Test
    void mistakesNameTheirLine() {
        assertThatThrownBy(() -> TxnScript.parse(List.of("mod(\"k\") = 1", "bogus(\"x\") = 1")))
                .hasMessageStartingWith("txn line 2 (bogus(\"x\") = 1): unknown compare target 'bogus'");
        assertThatThrownBy(() -> TxnScript.parse(List.of("mod(k) = 1"))).hasMessageContaining("a compare looks like");
        assertThatThrownBy(() -> TxnScript.parse(List.of("ver(\"k\") = two"))).hasMessageContaining("compares with a number");
        assertThatThrownBy(() -> TxnScript.parse(List.of("val(\"k\") = bare"))).hasMessageContaining("quoted string");
        assertThatThrownBy(() -> TxnScript.parse(List.of("", "put k"))).hasMessageContaining("put takes KEY VALUE");
        assertThatThrownBy(() -> TxnScript.parse(List.of("", "frob k"))).hasMessageContaining("unknown operation 'frob'");
        assertThatThrownBy(() -> TxnScript.parse(List.of("", "", "", "get k"))).hasMessageContaining("this is a fourth");
    }
}
