package org.jwd.accesslog;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The files of one logging handler: SAP's switching ({@code SWITCHTF}, {@code MAXSIZEKB}, {@code FILEWRAP},
 * {@code APPEND}, {@code MAXFILES}) over a {@link LineWriter}. A request only {@link #offer}s its line; the
 * access log's one writer thread ({@link AccessLogWriter}) {@link #drain}s the lines of every handler, switches files
 * and writes. When the queue is full (the disk cannot keep up) the line is dropped and counted ({@link DroppedLines},
 * over all the files of this handler), rather than slowing requests down.
 *
 * <p>A file ends before the line that would make it larger than {@code MAXSIZEKB} (lines are ASCII, one byte a
 * character, plus the line separator), and at the hour, day or month of {@code SWITCHTF} (by the request's time).
 * The next file's name is {@code LOGFILE} expanded at that time, or, when a file of that name exists already, the name
 * followed by {@code _0}, {@code _1}, ... as SAP does (the numbers only grow). With {@code FILEWRAP=on} there is one
 * file only, as in SAP: the next file is the name for now, emptied, and one of another name is deleted. At the start
 * the first file of the current name below {@code MAXSIZEKB} is continued, as SAP continues an existing file after a
 * restart; {@code APPEND=FALSE} empties it instead.
 *
 * <p>{@code FLUSH=TRUE} (the default): the lines a wake of the writer finds go to the file at once, so a line is in the
 * file at most {@link AccessLogWriter#BATCH_NANOS} after its request. {@code FLUSH=FALSE}: they gather in memory, and
 * go to the file with one write when {@link LineWriter#BUFFER_BYTES} of them have gathered, or
 * {@link #UNFLUSHED_NANOS} after the first of them, whichever comes first.
 */
final class AccessLogFile {
    /** Lines waiting for the disk at most; more are dropped. */
    static final int QUEUE = 10_000;
    /** Lines taken from the queue at a time. */
    static final int BATCH = 1024;
    /** With {@code FLUSH=FALSE}, how long lines stay in memory at most. */
    static final long UNFLUSHED_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int SEPARATOR = System.lineSeparator().length();

    /** A request's line and its time, which decides its file. */
    private record Line(String text, long epochMillis) {
    }

    private final AccessLogConfig config;
    private final LogFileName name;
    private final LongSupplier nanoClock;
    private final Runnable wake;
    private final DroppedLines dropped;
    private final BlockingQueue<Line> queue = new ArrayBlockingQueue<>(QUEUE);
    /** the file lines go to now, for the page (read by any thread) */
    private volatile String file;

    // the writer thread's alone, once it runs
    private final List<Line> batch = new ArrayList<>(BATCH);
    private final FileSequence sequence;
    private LineWriter writer;
    private long written;
    private long nextSwitchMillis;
    /** {@code nanoClock} when the first unwritten line of FLUSH=FALSE came; meaningless while none waits */
    private long pendingSinceNanos;

    /**
     * Opens the file for {@code nowMillis}.
     *
     * @param nanoClock {@link System#nanoTime()}, or a clock a test moves: FLUSH=FALSE, warnings, new tries of a
     *                  failed file
     * @param wake      wakes the writer thread for a line (it decides whether it sleeps)
     * @throws IOException when it cannot be written
     */
    AccessLogFile(AccessLogConfig config, LogFileName name, long nowMillis, LongSupplier nanoClock, Runnable wake)
            throws IOException {
        this.config = config;
        this.name = name;
        this.nanoClock = nanoClock;
        this.wake = wake;
        this.dropped = new DroppedLines(nanoClock);
        this.sequence = new FileSequence(name, config.files());
        open(nowMillis, true);
    }

    /** Enqueues {@code line} for the file of {@code epochMillis}: the request's thread's whole part. */
    void offer(String line, long epochMillis) {
        if (queue.offer(new Line(line, epochMillis))) {
            wake.run();
        } else {
            dropped.queueFull(Path.of(file));
        }
    }

    /**
     * The writer thread's part: takes up to {@link #BATCH} lines, starts the next file where one is due, writes them
     * (or keeps them in memory with FLUSH=FALSE until it is time).
     *
     * @return how many lines were taken
     */
    int drain() {
        queue.drainTo(batch, BATCH);
        int taken = batch.size();
        if (taken > 0 && !writer.pending()) {
            pendingSinceNanos = nanoClock.getAsLong();
        }
        for (Line line : batch) {
            long size = line.text().length() + SEPARATOR;
            long maxBytes = config.files().maxSizeKb() * 1024;
            if (line.epochMillis() >= nextSwitchMillis || (maxBytes > 0 && written > 0 && written + size > maxBytes)) {
                next(line.epochMillis());
            }
            written += size;
            writer.add(line.text());
        }
        batch.clear();
        if (writer.pending() && (config.flush() || nanoClock.getAsLong() - pendingSinceNanos >= UNFLUSHED_NANOS)) {
            writer.flush();
        }
        return taken;
    }

    /** Whether lines wait in the queue. */
    boolean queued() {
        return !queue.isEmpty();
    }

    /** {@code nanoClock} when lines kept in memory (FLUSH=FALSE) must be written; {@link Long#MAX_VALUE} for none. */
    long flushDueNanos() {
        return writer.pending() ? pendingSinceNanos + UNFLUSHED_NANOS : Long.MAX_VALUE;
    }

    /** Writes made to the file in use (system calls), for the tests. */
    long writes() {
        return writer.writes();
    }

    /** The file lines go to now. */
    String file() {
        return file;
    }

    /** Lines that did not reach a file since the start: the queue was full, or the file could not be written. */
    long droppedLines() {
        return dropped.count();
    }

    /** Why lines are dropped now ({@code java.io.IOException: No space left on device}), {@code null} while written. */
    String failure() {
        return dropped.failure();
    }

    /** The writer thread's last part: writes every queued line and closes the file. */
    void close() {
        while (!queue.isEmpty()) {
            drain();
        }
        writer.close();
    }

    /** Starts the next file for a line of {@code epochMillis}; keeps the one in use when it cannot. */
    private void next(long epochMillis) {
        writer.flush();
        try {
            open(epochMillis, false);
        } catch (IOException e) {
            // The file in use stays: losing the switch is better than losing lines.
            dropped.warn("jwd: cannot start the next access log file, {} is continued: {}", file, e.toString());
            nextSwitchMillis = nextSwitch(epochMillis);
            written = 0;
        }
    }

    /** @param start the first file: continued, unless APPEND=FALSE */
    private void open(long nowMillis, boolean start) throws IOException {
        FileSequence.Next next = sequence.next(nowMillis, start);
        Path path = Path.of(next.file());
        LineWriter previous = writer;
        boolean same = previous != null && previous.file().equals(path);
        if (same) {
            previous.close(); // FILEWRAP=on: the file in use is emptied and begun again
        }
        try {
            writer = new LineWriter(path, next.truncate(), dropped, nanoClock);
        } catch (IOException e) {
            if (same) { // its lines are dropped and counted until it can be opened again
                writer = LineWriter.failed(path, e, dropped, nanoClock);
            }
            throw new IOException("cannot open " + next.file() + ": " + e.getMessage(), e);
        }
        if (previous != null && !same) {
            previous.close();
        }
        file = next.file();
        written = new File(next.file()).length();
        nextSwitchMillis = nextSwitch(nowMillis);
        sequence.opened(next.file());
    }

    private long nextSwitch(long nowMillis) {
        ZonedDateTime now = Instant.ofEpochMilli(nowMillis).atZone(name.zone());
        ZonedDateTime next = switch (config.files().switchTf()) {
            case NONE -> null;
            case HOUR -> now.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            case DAY -> now.toLocalDate().plusDays(1).atStartOfDay(name.zone());
            case MONTH -> now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(name.zone());
        };
        return next == null ? Long.MAX_VALUE : next.toInstant().toEpochMilli();
    }
}
