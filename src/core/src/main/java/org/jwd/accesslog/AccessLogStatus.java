package org.jwd.accesslog;

/**
 * An access log as the admin page and the metrics show it; {@link #OFF} without {@code icm/HTTP/logging_<xx>}.
 *
 * @param key          the handler's key ({@code icm/HTTP/logging_0}); {@code icm/HTTP/logging_<xx>} for all of them
 * @param file         the file lines go to now, {@code null} when off
 * @param droppedLines lines that never reached a file since the start: the queue was full (the disk could not keep
 *                     up) or the file could not be written
 * @param failure      why lines are dropped now (a full disk, a directory made read-only), {@code null} while they
 *                     are written
 */
public record AccessLogStatus(String key, String file, long droppedLines, String failure) {
    public static final AccessLogStatus OFF = new AccessLogStatus(null, null, 0, null);

    public boolean on() {
        return file != null;
    }
}
