package dev.strata.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.client.KeyValue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The {@code -o json} output: one JSON document per command on stdout, with snake_case names
 * as in the gRPC API. Keys and values are strings when they are valid UTF-8 and otherwise go
 * in {@code key_base64} / {@code value_base64}, so binary data survives the trip.
 */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private Json() {}

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ObjectNode kv(KeyValue kv) {
        ObjectNode n = object();
        bytes(n, "key", kv.key());
        bytes(n, "value", kv.value());
        n.put("create_revision", kv.createRevision());
        n.put("mod_revision", kv.modRevision());
        n.put("version", kv.version());
        return n;
    }

    static ArrayNode kvs(List<KeyValue> kvs) {
        ArrayNode a = MAPPER.createArrayNode();
        kvs.forEach(kv -> a.add(kv(kv)));
        return a;
    }

    /** Puts {@code bytes} under {@code name} as text, or under {@code name_base64} when it is not UTF-8. */
    static void bytes(ObjectNode n, String name, byte[] bytes) {
        try {
            n.put(name, StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            n.put(name + "_base64", Base64.getEncoder().encodeToString(bytes));
        }
    }

    static void print(PrintWriter out, Object document) {
        try {
            MAPPER.writeValue(out, document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
        out.flush();
    }
}
