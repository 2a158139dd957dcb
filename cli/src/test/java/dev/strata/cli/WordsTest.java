package dev.strata.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WordsTest {
    @Test
    void spacesSeparateAndQuotesJoin() {
        assertThat(Words.split("  put  key \"a value\" ")).containsExactly("put", "key", "a value");
        assertThat(Words.split("get \"\"")).containsExactly("get", "");
        assertThat(Words.split("x\"y z\"w")).containsExactly("xy zw");
    }

    @Test
    void escapesInsideQuotes() {
        assertThat(Words.split("\"say \\\"hi\\\"\\n\\\\\\t\"")).isEqualTo(List.of("say \"hi\"\n\\\t"));
    }

    @Test
    void brokenQuotingIsRefused() {
        assertThatThrownBy(() -> Words.split("put k \"open")).hasMessageContaining("unclosed quote");
        assertThatThrownBy(() -> Words.split("\"bad \\q\"")).hasMessageContaining("unknown escape \\q");
    }

    @Test
    void theFirstWordEndsAtASpaceOutsideQuotes() {
        assertThat(Words.endOfFirstWord("key value")).isEqualTo(3);
        assertThat(Words.endOfFirstWord("\"my key\" value")).isEqualTo(8);
        assertThat(Words.endOfFirstWord("\"a \\\" b\" v")).isEqualTo(8);
        assertThat(Words.endOfFirstWord("alone")).isEqualTo(5);
    }
}
