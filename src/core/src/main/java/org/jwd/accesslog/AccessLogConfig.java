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

/**
 * One logging handler, as SAP's {@code icm/HTTP/logging_<xx>} configures it:
 * {@code PREFIX=/, LOGFILE=access_log-%y-%m-%d, LOGFORMAT=CLFMOD, FILTER=SAPSMD, SWITCHTF=day, MAXSIZEKB=10000,
 * MAXFILES=30, FILEWRAP=on, APPEND=TRUE, FLUSH=TRUE, ACTIVE=TRUE}. Without the key there is no access log (SAP's
 * default too). SAP's page: <a href="https://help.sap.com/doc/saphelp_nw74/7.4.16/en-us/5b/4fac7c106d4e1db1330f630fbb2f82/content.htm">icm/HTTP/logging_&lt;xx&gt;</a>;
 * its default format is CLF (<a href="https://help.sap.com/saphelp_470/helpdata/EN/73/b5f99a019f11d5991400508b6b8b11/content.htm">Logging
 * in the ICM</a>: "Sample Log Entries for Default Format (CLF)").
 *
 * @param key    {@code icm/HTTP/logging_<xx>}, for messages
 * @param prefix {@code PREFIX}: only requests whose path starts with it are logged
 * @param logFile {@code LOGFILE}: the file name, with SAP's placeholders {@code %y %m %d %h %t %s %%}
 * @param format {@code LOGFORMAT}: {@code CLF} (the default), {@code CLFMOD}, {@code SAP}, {@code SAPSMD}, jwd's
 *               {@code JWD} and {@code JSON}, or a format string of placeholders
 * @param filter {@code FILTER}: which requests of the prefix are logged
 * @param files  {@code SWITCHTF}, {@code MAXSIZEKB}, {@code MAXFILES}, {@code FILEWRAP}, {@code APPEND}
 * @param flush  {@code FLUSH}: lines go to the file as soon as the writer wakes ({@code true}) or gather in memory
 */
public record AccessLogConfig(String key, String prefix, String logFile, LogFormat format, Filter filter,
                              FileRules files, boolean flush) {
    public static final String KEY_PREFIX = "icm/HTTP/logging_";
    /** A sub-parameter starts after a comma: {@code , NAME=}; a comma inside LOGFORMAT stays its own. */
    private static final Pattern SEPARATOR = Pattern.compile(",\\s*(?=[A-Za-z]+\\s*=)");
    private static final Set<String> KNOWN = Set.of("PREFIX", "LOGFILE", "LOGFORMAT", "FILTER", "SWITCHTF",
            "MAXSIZEKB", "MAXFILES", "FILEWRAP", "APPEND", "FLUSH", "ACTIVE");

    /** When a new file begins, besides {@code MAXSIZEKB}. */
    public enum Switch { NONE, HOUR, DAY, MONTH }

    /** {@code FILTER}: which requests are logged. */
    public enum Filter {
        /** no FILTER: every request of the prefix */
        ALL,
        /** SAP's {@code FILTER=SAPSMD}: the requests of SAP Solution Manager Diagnostics, those with X-CorrelationID */
        SAPSMD;

        boolean accepts(Entry e) {
            if (this == ALL) {
                return true;
            }
            String id = e.header().apply("X-CorrelationID");
            return id != null && !id.isEmpty();
        }
    }

    public AccessLogConfig {
        if (!key.startsWith(KEY_PREFIX) || !prefix.startsWith("/") || logFile.isEmpty()) {
            throw new IllegalArgumentException("a logging handler needs its key, a PREFIX and a LOGFILE: " + key);
        }
    }

    /** Reads the value of {@code icm/HTTP/logging_0}, for the tests. */
    static Optional<AccessLogConfig> parse(String value) throws ConfigException {
        return parse(KEY_PREFIX + "0", value);
    }

    /** Reads the value of {@code key}, a relative {@code LOGFILE} in the working directory, for the tests. */
    static Optional<AccessLogConfig> parse(String key, String value) throws ConfigException {
        return parse(key, value, Path.of(""));
    }

    /**
     * Reads the value of {@code key}; every problem names the key and its sub-parameter.
     *
     * @param directory where a relative {@code LOGFILE} is: the configuration file's directory, as for every file
     *                  the configuration names (SAP's is the working directory, which a service may not set)
     * @return empty with {@code ACTIVE=FALSE}
     */
    static Optional<AccessLogConfig> parse(String key, String value, Path directory) throws ConfigException {
        List<String> problems = new ArrayList<>();
        Map<String, String> sub = subParameters(key, value, problems);
        boolean active = bool(key, sub, "ACTIVE", true, problems);
        String prefix = sub.getOrDefault("PREFIX", "/");
        if (!prefix.startsWith("/")) {
            problems.add(key + ": PREFIX = '" + prefix + "': expected a URL path prefix starting with '/'");
        }
        String logFile = sub.get("LOGFILE");
        if (logFile == null || logFile.isEmpty()) {
            problems.add(key + ": LOGFILE is missing: expected the log file's name (with %y %m %d %h %t %s)");
        } else {
            logFile = checkLogFile(key, logFile, directory, problems);
        }
        LogFormat format = null;
        try {
            format = LogFormat.of(sub.getOrDefault("LOGFORMAT", LogFormat.CLF));
        } catch (IllegalArgumentException e) {
            problems.add(key + ": LOGFORMAT = '" + sub.get("LOGFORMAT") + "': " + e.getMessage());
        }
        Filter filter = filter(key, sub.get("FILTER"), problems);
        FileRules files = files(key, sub, problems);
        boolean flush = bool(key, sub, "FLUSH", true, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return active ? Optional.of(new AccessLogConfig(key, prefix, logFile, format, filter, files, flush))
                : Optional.empty();
    }

    /** Whether a request of this handler's prefix and filter: SAP calls every logging handler whose prefix matches. */
    boolean accepts(Entry e) {
        return e.uri() != null && e.uri().startsWith(prefix) && filter.accepts(e);
    }

    private static FileRules files(String key, Map<String, String> sub, List<String> problems) {
        Switch switchTf = switchTf(key, sub.get("SWITCHTF"), problems);
        long maxSizeKb = number(key, sub, "MAXSIZEKB", problems);
        long maxFiles = number(key, sub, "MAXFILES", problems);
        boolean wrap = bool(key, sub, "FILEWRAP", false, problems);
        boolean append = bool(key, sub, "APPEND", true, problems);
        if (wrap && maxFiles > 1) {
            problems.add(key + ": FILEWRAP=on keeps one file, MAXFILES = '" + maxFiles + "' contradicts it: leave"
                    + " one of them out");
            return null;
        }
        return new FileRules(switchTf, maxSizeKb, (int) maxFiles, wrap, append);
    }

    /** {@code FILTER}: SAPSMD, SAP's one documented value; anything else would log requests jwd cannot tell apart. */
    private static Filter filter(String key, String value, List<String> problems) {
        if (value == null) {
            return Filter.ALL;
        }
        if (value.equalsIgnoreCase("SAPSMD")) {
            return Filter.SAPSMD;
        }
        problems.add(key + ": FILTER = '" + value + "': jwd honours FILTER=SAPSMD only (the requests that carry an"
                + " X-CorrelationID header, SAP Solution Manager Diagnostics'); leave FILTER out to log every request"
                + " of the PREFIX");
        return Filter.ALL;
    }

    /** {@code SWITCHTF}: hour, day or month; {@link Switch#NONE} without it. */
    private static Switch switchTf(String key, String tf, List<String> problems) {
        if (tf == null) {
            return Switch.NONE;
        }
        try {
            return Switch.valueOf(tf.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add(key + ": SWITCHTF = '" + tf + "': expected hour, day or month");
            return Switch.NONE;
        }
    }

    /** {@code TRUE}/{@code FALSE} as SAP writes them, {@code on}/{@code off} as FILEWRAP=on, {@code 1}/{@code 0}. */
    private static boolean bool(String key, Map<String, String> sub, String name, boolean fallback,
                                List<String> problems) {
        String v = sub.get(name);
        if (v == null) {
            return fallback;
        }
        return switch (v.toUpperCase(Locale.ROOT)) {
            case "TRUE", "ON", "1" -> true;
            case "FALSE", "OFF", "0" -> false;
            default -> {
                problems.add(key + ": " + name + " = '" + v + "': expected TRUE or FALSE (on or off)");
                yield fallback;
            }
        };
    }

    /** {@code NAME=value} sub-parameters by name (upper case); an unknown or repeated one is a problem. */
    private static Map<String, String> subParameters(String key, String value, List<String> problems) {
        Map<String, String> sub = new LinkedHashMap<>();
        for (String part : SEPARATOR.split(value.trim())) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part.trim() : part.substring(0, eq).trim().toUpperCase(Locale.ROOT);
            String v = eq < 0 ? "" : part.substring(eq + 1).trim();
            if (eq < 0 || !KNOWN.contains(name)) {
                problems.add(key + " = '" + value + "': '" + part.trim() + "' is no known sub-parameter; expected"
                        + " NAME=value for NAME in " + new TreeSet<>(KNOWN));
            } else if (sub.put(name, v) != null) {
                problems.add(key + ": " + name + " appears twice");
            }
        }
        return sub;
    }

    /**
     * The file's name resolved against {@code directory}; its directory must exist and be writable now: a log that
     * cannot be written fails the start, not a request.
     */
    private static String checkLogFile(String key, String logFile, Path directory, List<String> problems) {
        if (logFile.toLowerCase(Locale.ROOT).contains("yyyy_mm_dd")) {
            // Jetty's file writer would read it as its own date pattern and roll the file at midnight.
            problems.add(key + ": LOGFILE = '" + logFile + "': 'yyyy_mm_dd' is reserved; write the date with"
                    + " %y, %m and %d");
            return logFile;
        }
        try {
            String resolved = directory.resolve(logFile).toString();
            Path dir = Path.of(LogFileName.of(resolved).expand(0)).toAbsolutePath().getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                problems.add(key + ": LOGFILE = '" + logFile + "': its directory " + dir + " does not exist");
            } else if (!Files.isWritable(dir)) {
                problems.add(key + ": LOGFILE = '" + logFile + "': its directory " + dir + " is not writable");
            }
            return resolved;
        } catch (IllegalArgumentException e) {
            problems.add(key + ": LOGFILE = '" + logFile + "': not a file name: " + e.getMessage());
            return logFile;
        }
    }

    private static long number(String key, Map<String, String> sub, String name, List<String> problems) {
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
        problems.add(key + ": " + name + " = '" + v + "': expected a positive integer");
        return 0;
    }

    @Override
    public String toString() {
        return key + "[PREFIX=" + prefix + ", LOGFILE=" + logFile + ", LOGFORMAT=" + format
                + (filter == Filter.ALL ? "" : ", FILTER=" + filter) + ", " + files + (flush ? "" : ", FLUSH=FALSE")
                + "]";
    }
}
