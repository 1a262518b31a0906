package org.jwd.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Which jwd this is: the version of the build ({@code 1.0.0}, or {@code 1.0.0-SNAPSHOT} between releases) and the git
 * revision it was built from, as the build wrote them into {@code version.properties}. {@code bin/jwd --version}, the
 * start's log line, the admin page, {@code api/status} and the metric {@code jwd_build_info} all show these.
 */
public record Version(String version, String revision) {
    public static final Version CURRENT = load();

    /** Prints {@code jwd <version> (<revision>)}: {@code bin/jwd --version}. */
    public static void main(String[] args) {
        System.out.println(CURRENT);
    }

    private static Version load() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Version(known(p.getProperty("version")), known(p.getProperty("revision")));
    }

    /** A value the build did not fill in (no git, say) is {@code unknown}. */
    private static String known(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value;
    }

    @Override
    public String toString() {
        return "jwd " + version + " (" + revision + ")";
    }
}
