package org.jwd.accesslog;

/**
 * The access log as the admin page and the metrics show it; {@link #OFF} without {@code icm/HTTP/logging_0}.
 *
 * @param file         the file lines go to now, {@code null} when off
 * @param droppedLines lines that never reached a file since the start: the queue was full (the disk could not keep
 *                     up) or the file could not be written
 * @param failure      why lines are dropped now (a full disk, a directory made read-only), {@code null} while they
 *                     are written
 */
public record AccessLogStatus(String file, long droppedLines, String failure) {
    public static final AccessLogStatus OFF = new AccessLogStatus(null, 0, null);

    public boolean on() {
        return file != null;
    }
}
