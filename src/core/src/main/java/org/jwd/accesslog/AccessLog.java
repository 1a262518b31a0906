package org.jwd.accesslog;

import java.io.IOException;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;

/**
 * The access log of {@code icm/HTTP/logging_0}: one line per request that jwd routed, formatted by its
 * {@link LogFormat} on the request's thread and written by a thread of its own ({@link AccessLogFile}): a request
 * never waits for the disk, and a line that cannot be written is dropped and counted ({@link #status()}).
 * {@link #OFF} when the key is absent.
 */
public final class AccessLog implements AutoCloseable {
    /** No access log: {@link #isOn()} is false and nothing is written. */
    public static final AccessLog OFF = new AccessLog(null, null, null);

    private final AccessLogConfig config;
    private final LogFormat format;
    private final AccessLogFile file;

    private AccessLog(AccessLogConfig config, LogFormat format, AccessLogFile file) {
        this.config = config;
        this.format = format;
        this.file = file;
    }

    /**
     * Opens the log's file, or returns {@link #OFF}.
     *
     * @throws ConfigException naming {@value AccessLogConfig#KEY} when a sub-parameter is wrong or the file cannot
     *                         be opened
     */
    public static AccessLog open(DispatcherConfig config) throws ConfigException {
        AccessLogConfig c = AccessLogConfig.from(config).orElse(null);
        return c == null ? OFF : open(c, LogFileName.of(c.logFile()), System.currentTimeMillis());
    }

    static AccessLog open(AccessLogConfig c, LogFileName name, long nowMillis) throws ConfigException {
        try {
            return new AccessLog(c, c.format(), new AccessLogFile(c, name, nowMillis));
        } catch (IOException e) {
            throw new ConfigException(AccessLogConfig.KEY + ": LOGFILE = '" + c.logFile() + "': " + e.getMessage());
        }
    }

    /** Whether lines are written: when not, no {@link Entry} need be made. */
    public boolean isOn() {
        return file != null;
    }

    /** Writes the line of {@code entry}, when its path is under {@code PREFIX}. */
    public void log(Entry entry) {
        if (file != null && entry.uri() != null && entry.uri().startsWith(config.prefix())) {
            file.write(format.format(entry), entry.epochMillis());
        }
    }

    /** The file the next line goes to, or {@code null} when off. */
    public String file() {
        return file == null ? null : file.file();
    }

    /** The file, the lines dropped and why, for the page and the metrics. */
    public AccessLogStatus status() {
        return file == null ? AccessLogStatus.OFF
                : new AccessLogStatus(file.file(), file.droppedLines(), file.failure());
    }

    /** Writes what is queued and closes the file. */
    @Override
    public void close() {
        if (file != null) {
            file.close();
        }
    }

    @Override
    public String toString() {
        return file == null ? "AccessLog[off]" : "AccessLog[" + config + " -> " + file.file() + "]";
    }
}
