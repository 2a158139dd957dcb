package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a report record as indented JSON; null fields are left out. Public for the cluster
 * benchmarks in {@code dev.strata.bench.cluster}.
 */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

    private JsonReport() {}

    public static void write(Path file, Object report) throws IOException {
        MAPPER.writeValue(file.toFile(), report);
    }
}
