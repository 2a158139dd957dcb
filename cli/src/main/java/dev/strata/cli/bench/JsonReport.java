package dev.strata.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;

/** Writes a {@link BenchReport} as indented JSON; durations as ISO-8601 ({@code PT30S}), null fields left out. */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new SimpleModule().addSerializer(Duration.class, ToStringSerializer.instance))
            .enable(SerializationFeature.INDENT_OUTPUT)
            .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

    private JsonReport() {}

    public static void write(Path file, BenchReport report) throws IOException {
        MAPPER.writeValue(file.toFile(), report);
    }

    /** Writes to {@code out} and flushes it, leaving it open. */
    public static void write(Writer out, BenchReport report) throws IOException {
        MAPPER.writer().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, report);
        out.write(System.lineSeparator());
        out.flush();
    }
}
