package org.jwd.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.KeyReader;

/**
 * A password the configuration names: the password itself, or where it is kept, so that the file that is copied,
 * compared and shown need not hold it (SAP keeps a PSE's PIN out of the profile too, in {@code cred_v2}):
 * {@code ${env:NAME}} is the environment variable NAME of jwd's process, {@code ${file:PATH}} the content of a file
 * (its final line break left out; relative to the configuration's directory), which only jwd's user should read.
 * A reference is read again each time the password is asked for, so that a renewed keystore may come with a
 * renewed password file. No message and no {@link #toString()} ever shows a password.
 */
public final class Secret {
    /** What a password key takes, for messages. */
    public static final String EXPECTED = "the password, ${env:NAME} (an environment variable) or ${file:PATH} (a file"
            + " holding it)";
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(env|file):([^}]+)}");

    private final String text;
    private final Path directory;
    private final UnaryOperator<String> environment;

    private Secret(String text, Path directory, UnaryOperator<String> environment) {
        this.text = text;
        this.directory = directory;
        this.environment = environment;
    }

    /** A password key's value; its references read jwd's own environment. */
    public static Secret of(String text, Path directory) {
        return of(text, directory, System::getenv);
    }

    static Secret of(String text, Path directory, UnaryOperator<String> environment) {
        return new Secret(text, directory, environment);
    }

    /**
     * The password key {@code key}, checked once (the variable is set, the file can be read); {@code null} when
     * absent or when it cannot be read (a problem then names the key and the variable or file, never a password).
     */
    static Secret read(KeyReader keys, String key) {
        String text = keys.raw(key);
        if (text == null) {
            return null;
        }
        Secret secret = of(text.strip(), keys.directory());
        try {
            secret.value();
            return secret;
        } catch (IllegalArgumentException e) {
            keys.problemText(key, key + ": " + e.getMessage());
            return null;
        }
    }

    /** Whether the configuration names where the password is kept rather than holding it. */
    public boolean isReference() {
        return REFERENCE.matcher(text).matches();
    }

    /** The file a {@code ${file:PATH}} reference names, absolute; {@code null} for any other password. */
    public Path file() {
        Matcher m = REFERENCE.matcher(text);
        return m.matches() && m.group(1).equals("file") ? directory.resolve(m.group(2).strip()).normalize() : null;
    }

    /** @throws IllegalArgumentException naming the variable that is not set or the file that cannot be read */
    public String value() {
        Matcher m = REFERENCE.matcher(text);
        if (!m.matches()) {
            return text;
        }
        String name = m.group(2).strip();
        if (m.group(1).equals("env")) {
            String value = environment.apply(name);
            if (value == null) {
                throw new IllegalArgumentException("the environment variable " + name + " (" + text
                        + ") is not set: expected it to hold the password");
            }
            return value;
        }
        Path file = file();
        try {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            return content.endsWith("\r\n") ? content.substring(0, content.length() - 2)
                    : content.endsWith("\n") ? content.substring(0, content.length() - 1) : content;
        } catch (IOException e) {
            throw new IllegalArgumentException("the password file " + file + " (" + text + ") cannot be read ("
                    + e.getClass().getSimpleName() + "): expected a readable file holding the password");
        }
    }

    /** The password as Java's key stores take it. */
    char[] chars() {
        return value().toCharArray();
    }

    @Override
    public String toString() {
        return isReference() ? text : "(a password)";
    }
}
