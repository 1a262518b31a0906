package org.jwd.accesslog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;

/**
 * The access log, as SAP's {@code icm/HTTP/logging_0} configures it:
 * {@code PREFIX=/, LOGFILE=access_log-%y-%m-%d, LOGFORMAT=JWD, SWITCHTF=day, MAXSIZEKB=10000, MAXFILES=30}.
 * Without the key there is no access log (SAP's default too).
 *
 * @param prefix    {@code PREFIX}: only requests whose path starts with it are logged
 * @param logFile   {@code LOGFILE}: the file name, with SAP's placeholders {@code %y %m %d %h %t %s %%}
 * @param format    {@code LOGFORMAT}: {@code CLF}, {@code CLFMOD}, {@code SAP}, {@code JWD} (the default),
 *                  {@code JSON}, or a format string of placeholders
 * @param switchTf  {@code SWITCHTF}: a new file each hour, day or month; {@link Switch#NONE} for none
 * @param maxSizeKb {@code MAXSIZEKB}: a new file once this size would be passed; 0 for no bound
 * @param maxFiles  {@code MAXFILES}: files of this log kept, the oldest deleted; 0 for all
 */
public record AccessLogConfig(String prefix, String logFile, LogFormat format, Switch switchTf, long maxSizeKb,
                              int maxFiles) {
    public static final String KEY = "icm/HTTP/logging_0";
    /** A sub-parameter starts after a comma: {@code , NAME=}; a comma inside LOGFORMAT stays its own. */
    private static final Pattern SEPARATOR = Pattern.compile(",\\s*(?=[A-Za-z]+\\s*=)");
    private static final Set<String> KNOWN = Set.of("PREFIX", "LOGFILE", "LOGFORMAT", "SWITCHTF", "MAXSIZEKB",
            "MAXFILES", "ACTIVE");
    /** SAP's sub-parameters that jwd does not implement: named in the error rather than silently ignored. */
    private static final Set<String> UNSUPPORTED = Set.of("FILTER", "FILEWRAP", "FLUSH", "APPEND");

    /** When a new file begins, besides {@code MAXSIZEKB}. */
    public enum Switch { NONE, HOUR, DAY, MONTH }

    /** The access log of {@code config}, or empty when {@value #KEY} is absent or {@code ACTIVE=FALSE}. */
    public static Optional<AccessLogConfig> from(DispatcherConfig config) {
        return config.sections().find(AccessLogConfig.class);
    }

    /**
     * Reads {@value #KEY} (restart-only: the log is opened once); {@code null} when it is absent or
     * {@code ACTIVE=FALSE}. Each problem names the key's line and the sub-parameter.
     */
    public static AccessLogConfig read(KeyReader keys) {
        String value = keys.restartOnly().raw(KEY);
        if (value == null) {
            return null;
        }
        try {
            return parse(value, keys.directory()).orElse(null);
        } catch (ConfigException e) {
            e.problems().forEach(problem -> keys.problemText(KEY, problem));
            return null;
        }
    }

    /** As {@link #parse(String, Path)}, a relative {@code LOGFILE} in the working directory. */
    static Optional<AccessLogConfig> parse(String value) throws ConfigException {
        return parse(value, Path.of(""));
    }

    /**
     * Reads the value of {@value #KEY}; every problem names the key and its sub-parameter.
     *
     * @param directory where a relative {@code LOGFILE} is: the configuration file's directory, as for every file
     *                  the configuration names (SAP's is the working directory, which a service may not set)
     */
    static Optional<AccessLogConfig> parse(String value, Path directory) throws ConfigException {
        List<String> problems = new ArrayList<>();
        Map<String, String> sub = subParameters(value, problems);
        String active = sub.getOrDefault("ACTIVE", "TRUE");
        if (!active.equalsIgnoreCase("TRUE") && !active.equalsIgnoreCase("FALSE")) {
            problems.add(KEY + ": ACTIVE = '" + active + "': expected TRUE or FALSE");
        }
        String prefix = sub.getOrDefault("PREFIX", "/");
        if (!prefix.startsWith("/")) {
            problems.add(KEY + ": PREFIX = '" + prefix + "': expected a URL path prefix starting with '/'");
        }
        String logFile = sub.get("LOGFILE");
        if (logFile == null || logFile.isEmpty()) {
            problems.add(KEY + ": LOGFILE is missing: expected the log file's name (with %y %m %d %h %t %s)");
        } else {
            logFile = checkLogFile(logFile, directory, problems);
        }
        LogFormat format = null;
        try {
            format = LogFormat.of(sub.getOrDefault("LOGFORMAT", LogFormat.JWD));
        } catch (IllegalArgumentException e) {
            problems.add(KEY + ": LOGFORMAT = '" + sub.get("LOGFORMAT") + "': " + e.getMessage());
        }
        Switch switchTf = switchTf(sub.get("SWITCHTF"), problems);
        long maxSizeKb = number(sub, "MAXSIZEKB", problems);
        long maxFiles = number(sub, "MAXFILES", problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        if (active.equalsIgnoreCase("FALSE")) {
            return Optional.empty();
        }
        return Optional.of(new AccessLogConfig(prefix, logFile, format, switchTf, maxSizeKb, (int) maxFiles));
    }

    /** {@code SWITCHTF}: hour, day or month; {@link Switch#NONE} without it. */
    private static Switch switchTf(String tf, List<String> problems) {
        if (tf == null) {
            return Switch.NONE;
        }
        try {
            return Switch.valueOf(tf.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add(KEY + ": SWITCHTF = '" + tf + "': expected hour, day or month");
            return Switch.NONE;
        }
    }

    /** {@code NAME=value} sub-parameters by name (upper case); an unknown or repeated one is a problem. */
    private static Map<String, String> subParameters(String value, List<String> problems) {
        Map<String, String> sub = new LinkedHashMap<>();
        for (String part : SEPARATOR.split(value.trim())) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part.trim() : part.substring(0, eq).trim().toUpperCase(Locale.ROOT);
            String v = eq < 0 ? "" : part.substring(eq + 1).trim();
            if (eq < 0 || !KNOWN.contains(name)) {
                problems.add(KEY + " = '" + value + "': '" + part.trim() + "' is "
                        + (UNSUPPORTED.contains(name) ? "a sub-parameter of SAP's that jwd does not support"
                        : "no known sub-parameter") + "; expected NAME=value for NAME in " + new TreeSet<>(KNOWN));
            } else if (sub.put(name, v) != null) {
                problems.add(KEY + ": " + name + " appears twice");
            }
        }
        return sub;
    }

    /**
     * The file's name resolved against {@code directory}; its directory must exist and be writable now: a log that
     * cannot be written fails the start, not a request.
     */
    private static String checkLogFile(String logFile, Path directory, List<String> problems) {
        if (logFile.toLowerCase(Locale.ROOT).contains("yyyy_mm_dd")) {
            // Jetty's file writer would read it as its own date pattern and roll the file at midnight.
            problems.add(KEY + ": LOGFILE = '" + logFile + "': 'yyyy_mm_dd' is reserved; write the date with"
                    + " %y, %m and %d");
            return logFile;
        }
        try {
            String resolved = directory.resolve(logFile).toString();
            Path dir = Path.of(LogFileName.of(resolved).expand(0)).toAbsolutePath().getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                problems.add(KEY + ": LOGFILE = '" + logFile + "': its directory " + dir + " does not exist");
            } else if (!Files.isWritable(dir)) {
                problems.add(KEY + ": LOGFILE = '" + logFile + "': its directory " + dir + " is not writable");
            }
            return resolved;
        } catch (IllegalArgumentException e) {
            problems.add(KEY + ": LOGFILE = '" + logFile + "': not a file name: " + e.getMessage());
            return logFile;
        }
    }

    private static long number(Map<String, String> sub, String name, List<String> problems) {
        String v = sub.get(name);
        if (v == null) {
            return 0;
        }
        try {
            long n = Long.parseLong(v);
            if (n > 0 && n <= Integer.MAX_VALUE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(KEY + ": " + name + " = '" + v + "': expected a positive integer");
        return 0;
    }

    @Override
    public String toString() {
        return KEY + "[PREFIX=" + prefix + ", LOGFILE=" + logFile + ", LOGFORMAT=" + format + ", SWITCHTF="
                + switchTf.name().toLowerCase(Locale.ROOT) + ", MAXSIZEKB=" + maxSizeKb + ", MAXFILES=" + maxFiles
                + "]";
    }
}
