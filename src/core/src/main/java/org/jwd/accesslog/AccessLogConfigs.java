package org.jwd.accesslog;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;

/**
 * Every logging handler of the configuration, {@code icm/HTTP/logging_<xx>} in the order of their numbers (SAP's
 * indexes need not follow each other). A request is logged by every handler whose {@code PREFIX} and {@code FILTER}
 * take it: SAP's logging handler "carries out the HTTP logging and forwards it to the next subhandler"
 * (<a href="https://help.sap.com/saphelp_ewm94/helpdata/en/48/1acd936b624c1de10000000a42189b/content.htm">Processing
 * HTTP Requests</a>), so one handler never hides a request from the next. Two handlers may not write one file: their
 * lines would mix and each one's MAXFILES would delete the other's files.
 *
 * @param handlers at least one, in the order of their numbers
 */
public record AccessLogConfigs(List<AccessLogConfig> handlers) {
    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,2}");

    public AccessLogConfigs {
        handlers = List.copyOf(handlers);
        if (handlers.isEmpty()) {
            throw new IllegalArgumentException("at least one logging handler");
        }
    }

    /** The access logs of {@code config}, or empty when no {@code icm/HTTP/logging_<xx>} is active. */
    public static Optional<AccessLogConfigs> from(DispatcherConfig config) {
        return config.sections().find(AccessLogConfigs.class);
    }

    /**
     * Reads every {@code icm/HTTP/logging_<xx>} (restart-only: the logs are opened once); {@code null} when there is
     * none or none is active. Each problem names the key's line and the sub-parameter.
     */
    public static AccessLogConfigs read(KeyReader keys) {
        Map<Integer, AccessLogConfig> handlers = new TreeMap<>();
        for (String key : List.copyOf(keys.values().keySet())) {
            if (!key.startsWith(AccessLogConfig.KEY_PREFIX)) {
                continue;
            }
            String value = keys.restartOnly().raw(key);
            String number = key.substring(AccessLogConfig.KEY_PREFIX.length());
            if (!NUMBER.matcher(number).matches()) {
                keys.problemText(key, key + ": expected " + AccessLogConfig.KEY_PREFIX + "<xx>, <xx> a number"
                        + " without a leading 0");
                continue;
            }
            try {
                AccessLogConfig.parse(key, value, keys.directory())
                        .ifPresent(c -> handlers.put(Integer.parseInt(number), c));
            } catch (ConfigException e) {
                e.problems().forEach(problem -> keys.problemText(key, problem));
            }
        }
        List<AccessLogConfig> all = List.copyOf(handlers.values());
        sharedFiles(all, keys::problemText);
        return all.isEmpty() ? null : new AccessLogConfigs(all);
    }

    /** Each later handler whose files could be an earlier one's: the same LOGFILE, or names one's pattern matches. */
    static void sharedFiles(List<AccessLogConfig> handlers, BiConsumer<String, String> problem) {
        for (int i = 0; i < handlers.size(); i++) {
            for (int j = 0; j < i; j++) {
                AccessLogConfig a = handlers.get(j);
                AccessLogConfig b = handlers.get(i);
                if (overlap(a.logFile(), b.logFile())) {
                    problem.accept(b.key(), b.key() + ": LOGFILE = '" + b.logFile() + "': " + a.key()
                            + " writes that file (LOGFILE = '" + a.logFile() + "'): give each handler a file of its own");
                }
            }
        }
    }

    /** Whether a file of one pattern could be a file of the other: same directory, and one's name fits the other. */
    private static boolean overlap(String a, String b) {
        Path pa = Path.of(a).toAbsolutePath().normalize();
        Path pb = Path.of(b).toAbsolutePath().normalize();
        if (pa.equals(pb)) {
            return true;
        }
        if (!pa.getParent().equals(pb.getParent())) {
            return false;
        }
        LogFileName na = LogFileName.of(pa.getFileName().toString());
        LogFileName nb = LogFileName.of(pb.getFileName().toString());
        return na.files().matcher(nb.expand(System.currentTimeMillis())).matches()
                || nb.files().matcher(na.expand(System.currentTimeMillis())).matches();
    }
}
