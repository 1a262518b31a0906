package org.jwd.admin;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

/**
 * The admin interface's JSON, through Jackson. Answers are records ({@link StatusView}, {@link ServerView}, ...)
 * whose components, in snake case and in declaration order, are the fields clients read. What clients send (a
 * registration) is read by a separate, strict parser: at most {@value #MAX_DOCUMENT} bytes, nested at most
 * {@value #MAX_DEPTH} deep, no key twice, nothing after the value.
 *
 * <p>What is written is what jwd always wrote: {@code <}, U+2028 and U+2029 escaped, so that no string can close a
 * {@code <script>} element it is embedded in; control characters as {@code \}{@code u00xx}; a whole decimal (a
 * quality of 1000.0) as {@code 1000}; NaN and infinities as {@code null}.
 */
public final class AdminJson {
    /** The most a registration may have: it names a URL, a type and a few groups. */
    static final int MAX_DOCUMENT = 64 * 1024;
    /** A registration is one flat object: nesting deeper than this is refused before it costs the stack. */
    static final int MAX_DEPTH = 32;
    /** Digits enough for any capacity or port; more is an attempt at a slow number parse. */
    private static final int MAX_NUMBER_LENGTH = 20;
    /** Field names are echoed in error messages: none of the known ones is near this long. */
    private static final int MAX_NAME_LENGTH = 256;

    private static final ObjectMapper WRITER = JsonMapper.builder(new JsonFactoryBuilder()
                    .characterEscapes(new ScriptSafeEscapes()).build())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new SimpleModule("jwd-admin")
                    .addSerializer(Double.class, new WholeNumbers())
                    .addSerializer(Double.TYPE, new WholeNumbers()))
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final ObjectMapper STRICT_READER = JsonMapper.builder(new JsonFactoryBuilder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxDocumentLength(MAX_DOCUMENT)
                            .maxNestingDepth(MAX_DEPTH)
                            .maxNumberLength(MAX_NUMBER_LENGTH)
                            .maxNameLength(MAX_NAME_LENGTH)
                            .maxStringLength(MAX_DOCUMENT)
                            .build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private AdminJson() {
    }

    /** {@code value} as JSON text: a view record, a list or map of them, a string, a number. */
    public static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an admin answer that Jackson cannot write: " + value, e);
        }
    }

    /**
     * Reads what a client sent, with the strict limits.
     *
     * @throws IllegalArgumentException naming the line, the column and what was wrong there
     */
    static JsonNode readUntrusted(String text) {
        JsonNode node;
        try {
            node = STRICT_READER.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("invalid JSON" + (at == null || at.getLineNr() < 0 ? ""
                    : " at line " + at.getLineNr() + ", column " + at.getColumnNr()) + ": " + e.getOriginalMessage());
        }
        if (node == null || node.isMissingNode()) {
            throw new IllegalArgumentException("invalid JSON: a value was expected, the body is empty");
        }
        return node;
    }

    /**
     * Loads Jackson and builds the writer's serializers for every view now, and the strict reader's parser: else
     * the first page load pays for them, which takes a second or more on a busy machine. What is left for a view's
     * first answer is a few milliseconds.
     */
    static void prepare() {
        for (Class<?> view : List.of(StatusView.class, ServerView.class, GroupView.class, SessionTableView.class,
                ConfigView.class, HistoryView.class, ExplainView.class, ErrorView.class, RemovedView.class,
                SystemsView.class)) {
            WRITER.canSerialize(view);
        }
        readUntrusted("{\"prepared\":[true]}");
    }

    /**
     * Reads an answer of jwd's own admin API (for {@code lgtst}) into its view type. Fields a newer jwd added are
     * skipped, so that an older tool still reads it.
     */
    public static <T> T readAnswer(String text, TypeReference<T> type)
            throws JsonProcessingException {
        return WRITER.readValue(text, type);
    }

    /** Decimals as jwd always wrote them: whole ones without a fraction, non-numbers as {@code null}. */
    private static final class WholeNumbers extends StdSerializer<Double> {
        WholeNumbers() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            double d = value;
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                generator.writeNull();
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                generator.writeNumber((long) d);
            } else {
                generator.writeNumber(d);
            }
        }
    }

    /**
     * JSON's own escapes for {@code "} and {@code \}, {@code \n}, {@code \r}, {@code \t}; {@code \}{@code u00xx}
     * for the other control characters, {@code <}, U+2028 and U+2029 (line ends to a JavaScript parser).
     */
    private static final class ScriptSafeEscapes extends CharacterEscapes {
        private final int[] ascii = standardAsciiEscapesForJSON();

        ScriptSafeEscapes() {
            for (int c = 0; c < 0x20; c++) {
                if (c != '\n' && c != '\r' && c != '\t') {
                    ascii[c] = ESCAPE_CUSTOM;
                }
            }
            ascii['<'] = ESCAPE_CUSTOM;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            return c < 0x80 || c == 0x2028 || c == 0x2029
                    ? new SerializedString(String.format("\\u%04x", c)) : null;
        }
    }
}
