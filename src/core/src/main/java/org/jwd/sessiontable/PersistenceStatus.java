package org.jwd.sessiontable;

/**
 * The session table's persistent tier as the admin page and the metrics show it ({@code SessionTable.disk_path});
 * {@link #NONE} for a table kept in memory only.
 *
 * @param directory        {@code SessionTable.disk_path}, resolved; {@code null} when not persistent
 * @param restored         bindings read back at the start
 * @param restoredAtMillis epoch milliseconds when the restore ended (0 when not persistent)
 * @param dropped          bindings on disk not restored: idle past their timeout while jwd was down, or bound to a
 *                         server no longer configured
 * @param lastFlushMillis  epoch milliseconds of the last successful write (0 before the first)
 * @param flushFailures    writes that failed (a full or read-only disk: the last good write stays on disk, and
 *                         the bindings are written at the next one)
 * @param flushFailure     why the last write failed, or why nothing is written (a directory a later jwd wrote);
 *                         {@code null} when it worked
 */
public record PersistenceStatus(String directory, long restored, long restoredAtMillis, long dropped,
                                long lastFlushMillis, long flushFailures, String flushFailure) {
    public static final PersistenceStatus NONE = new PersistenceStatus(null, 0, 0, 0, 0, 0, null);

    public boolean persistent() {
        return directory != null;
    }
}
