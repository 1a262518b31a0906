package org.jwd.config;

import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * Reads one feature section on its own, as its tests need: the core keys from the text, then the section from the
 * same properties without a file, so that its messages read {@code key = 'value': expected …} without location.
 */
public final class SectionFixture {
    private SectionFixture() {
    }

    /** @throws ConfigException with the core's problems, else the section's */
    public static <T> T read(String text, Path directory, BiFunction<KeyReader, DispatcherConfig, T> section)
            throws ConfigException {
        KeyReader file = KeyReader.parse(text, "test.properties", directory);
        DispatcherConfig core = ConfigParser.read(file);
        file.check();
        KeyReader keys = KeyReader.of(core.properties(), directory);
        T result = section.apply(keys, core);
        keys.check();
        return result;
    }
}
