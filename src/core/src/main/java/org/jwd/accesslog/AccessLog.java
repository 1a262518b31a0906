package org.jwd.accesslog;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;

/**
 * The access logs of {@code icm/HTTP/logging_<xx>}: one line per request that jwd routed, in the file of every
 * logging handler whose {@code PREFIX} and {@code FILTER} take it, formatted by the handler's {@link LogFormat} on the
 * request's thread and written by one thread for all of them ({@link AccessLogWriter}): a request never waits for the
 * disk, and a line that cannot be written is dropped and counted ({@link #status()}). {@link #OFF} without the key.
 */
public final class AccessLog implements AutoCloseable {
    /** No access log: {@link #isOn()} is false and nothing is written. */
    public static final AccessLog OFF = new AccessLog(List.of(), null);

    /** One handler: its configuration and its files. */
    private record Handler(AccessLogConfig config, AccessLogFile file) {
    }

    private final List<Handler> handlers;
    private final AccessLogWriter writer;

    private AccessLog(List<Handler> handlers, AccessLogWriter writer) {
        this.handlers = handlers;
        this.writer = writer;
    }

    /**
     * Opens every handler's file and starts the writer, or returns {@link #OFF}.
     *
     * @throws ConfigException naming the handler's key when its file cannot be opened
     */
    public static AccessLog open(DispatcherConfig config) throws ConfigException {
        AccessLogConfigs c = AccessLogConfigs.from(config).orElse(null);
        return c == null ? OFF : open(c.handlers(), System.currentTimeMillis(), System::nanoTime,
                AccessLogWriter.BATCH_NANOS, null);
    }

    /**
     * @param zone the time zone of the file names ({@code null}: the system's)
     */
    static AccessLog open(List<AccessLogConfig> configs, long nowMillis, LongSupplier nanoClock, long batchNanos,
                          ZoneId zone) throws ConfigException {
        AccessLogWriter writer = new AccessLogWriter(nanoClock, batchNanos);
        List<Handler> handlers = new ArrayList<>();
        for (AccessLogConfig c : configs) {
            LogFileName name = zone == null ? LogFileName.of(c.logFile()) : LogFileName.of(c.logFile(), zone);
            try {
                handlers.add(new Handler(c, new AccessLogFile(c, name, nowMillis, nanoClock, writer::wake)));
            } catch (IOException e) {
                handlers.forEach(h -> h.file().close());
                throw new ConfigException(c.key() + ": LOGFILE = '" + c.logFile() + "': " + e.getMessage());
            }
        }
        writer.start(handlers.stream().map(Handler::file).toList());
        return new AccessLog(List.copyOf(handlers), writer);
    }

    /** Whether lines are written: when not, no {@link Entry} need be made. */
    public boolean isOn() {
        return writer != null;
    }

    /** Writes the line of {@code entry} to every handler that takes it (its format made once per handler). */
    public void log(Entry entry) {
        for (Handler h : handlers) {
            if (h.config().accepts(entry)) {
                h.file().offer(h.config().format().format(entry), entry.epochMillis());
            }
        }
    }

    /** The file the next line of the first handler goes to, or {@code null} when off. */
    public String file() {
        return handlers.isEmpty() ? null : handlers.get(0).file().file();
    }

    /**
     * The logs together, for the page and the metrics: the first handler's file, the lines dropped by all, the first
     * failure in force.
     */
    public AccessLogStatus status() {
        if (handlers.isEmpty()) {
            return AccessLogStatus.OFF;
        }
        List<AccessLogStatus> each = statuses();
        return new AccessLogStatus(AccessLogConfig.KEY_PREFIX + "<xx>", each.get(0).file(),
                each.stream().mapToLong(AccessLogStatus::droppedLines).sum(),
                each.stream().map(AccessLogStatus::failure).filter(f -> f != null).findFirst().orElse(null));
    }

    /** Each handler's file, lines dropped and failure, in the order of their numbers. */
    public List<AccessLogStatus> statuses() {
        return handlers.stream().map(h -> new AccessLogStatus(h.config().key(), h.file().file(),
                h.file().droppedLines(), h.file().failure())).toList();
    }

    /** Writes what is queued and closes the files. */
    @Override
    public void close() {
        if (writer != null) {
            writer.close();
        }
    }

    @Override
    public String toString() {
        return handlers.isEmpty() ? "AccessLog[off]" : "AccessLog" + handlers.stream()
                .map(h -> h.config() + " -> " + h.file().file()).toList();
    }
}
