package org.jwd.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Finds and reads the configuration file: system property {@code jwd.config}, else {@code JWD_CONFIG}. */
public final class ConfigLoader {
    public static final String SYSTEM_PROPERTY = "jwd.config";
    public static final String ENVIRONMENT_VARIABLE = "JWD_CONFIG";

    private ConfigLoader() {
    }

    public static Path locate() throws ConfigException {
        String path = System.getProperty(SYSTEM_PROPERTY);
        if (path == null || path.isBlank()) {
            path = System.getenv(ENVIRONMENT_VARIABLE);
        }
        if (path == null || path.isBlank()) {
            throw new ConfigException("no configuration file: set the system property " + SYSTEM_PROPERTY
                    + " or the environment variable " + ENVIRONMENT_VARIABLE + " to the path of a properties file");
        }
        return Path.of(path);
    }

    /**
     * Reads the file's keys, to be read by the sections; relative paths in it are resolved against its directory.
     *
     * @throws ConfigException naming the file when it is missing or unreadable
     */
    public static KeyReader read(Path file) throws ConfigException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException("configuration file " + file.toAbsolutePath()
                    + " does not exist: expected a properties file");
        } catch (IOException e) {
            throw new ConfigException("configuration file " + file.toAbsolutePath() + " cannot be read: " + e);
        }
        return KeyReader.parse(text, file.toString(), file.toAbsolutePath().getParent());
    }
}
