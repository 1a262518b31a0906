package org.jwd.accesslog;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log's files: SAP's switching ({@code SWITCHTF}, {@code MAXSIZEKB}, {@code MAXFILES}) over a
 * {@link LineWriter}, which appends to one file from a thread of its own. A request only enqueues its line; when the
 * queue is full (the disk cannot keep up) or the file cannot be written (a full disk, a directory made read-only),
 * the line is dropped and counted ({@link DroppedLines}, over all the files), rather than slowing requests down.
 *
 * <p>Each file of SAP's sequence gets a writer of its own:
 * when a line would pass {@code MAXSIZEKB}, or the hour, day or month changes, a writer for the next file takes the
 * next lines, and the previous one is stopped in the background once it has written its queue. Its sizes are
 * exact: a file ends before the line that would make it larger than {@code MAXSIZEKB} (lines are ASCII, one byte a
 * character, plus the line separator).
 *
 * <p>The next file's name is {@code LOGFILE} expanded at that time, or, when a file of that name exists already,
 * the name followed by {@code _0}, {@code _1}, ... as SAP does (the numbers only grow). At the start, the first file
 * of the current name below {@code MAXSIZEKB} is continued, as SAP continues an existing file after a restart.
 */
final class AccessLogFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessLogFile.class);
    /** Lines waiting for the disk at most; more are dropped. */
    static final int QUEUE = 10_000;
    private static final int SEPARATOR = System.lineSeparator().length();

    private final LogFileName name;
    private final AccessLogConfig.Switch switchTf;
    /** bytes; 0 for no bound */
    private final long maxBytes;
    private final int maxFiles;
    private final LongSupplier nanoClock;
    private final DroppedLines dropped;
    /** Stops the writers of finished files and deletes the files past MAXFILES, off the requests' threads. */
    private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "jwd-accesslog-files");
        t.setDaemon(true);
        return t;
    });

    // guarded by this
    private LineWriter writer;
    private String file;
    /** {@link #file}'s name without its {@code _n} suffix, and n (-1 for none) */
    private String base;
    private int suffix;
    private long written;
    private long nextSwitchMillis;
    /** the files this log opened, oldest first: MAXFILES deletes them in this order, after those found at the start */
    private final Deque<String> opened = new ArrayDeque<>();

    /** Opens the file for {@code nowMillis}. @throws IOException when it cannot be written */
    AccessLogFile(AccessLogConfig config, LogFileName name, long nowMillis) throws IOException {
        this(config, name, nowMillis, System::nanoTime);
    }

    /** @param nanoClock {@link System#nanoTime()}, or a clock a test moves: warnings and new tries of a failed file */
    AccessLogFile(AccessLogConfig config, LogFileName name, long nowMillis, LongSupplier nanoClock) throws IOException {
        this.name = name;
        this.switchTf = config.switchTf();
        this.maxBytes = config.maxSizeKb() * 1024;
        this.maxFiles = config.maxFiles();
        this.nanoClock = nanoClock;
        this.dropped = new DroppedLines(nanoClock);
        synchronized (this) {
            open(nowMillis, false);
        }
    }

    /** Enqueues {@code line} for the file of {@code epochMillis}, starting the next file when it is due. */
    synchronized void write(String line, long epochMillis) {
        long size = line.length() + SEPARATOR;
        if (epochMillis >= nextSwitchMillis || (maxBytes > 0 && written > 0 && written + size > maxBytes)) {
            try {
                open(epochMillis, true);
            } catch (IOException e) {
                // The file in use stays: losing the switch is better than losing lines.
                dropped.warn("jwd: cannot start the next access log file, {} is continued: {}", file, e.toString());
                nextSwitchMillis = nextSwitch(epochMillis);
                written = 0;
            }
        }
        written += size;
        writer.write(line);
    }

    /** The file lines go to now. */
    synchronized String file() {
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

    /** Guarded by this. @param fresh a switch: a file that exists is not continued */
    private void open(long nowMillis, boolean fresh) throws IOException {
        String base = name.expand(nowMillis);
        // Within one name the numbers only grow: a file MAXFILES deleted does not come back as the next one.
        int n = base.equals(this.base) ? suffix + 1 : -1;
        String next = n < 0 ? base : base + "_" + n;
        while (new File(next).exists() && (fresh || !continuable(next))) {
            next = base + "_" + ++n;
        }
        LineWriter started;
        try {
            started = new LineWriter(Path.of(next), QUEUE, dropped, nanoClock);
        } catch (IOException e) {
            throw new IOException("cannot open " + next + ": " + e.getMessage(), e);
        }
        LineWriter previous = writer;
        writer = started;
        file = next;
        this.base = base;
        suffix = n;
        written = new File(next).length();
        nextSwitchMillis = nextSwitch(nowMillis);
        String current = Path.of(next).getFileName().toString();
        opened.remove(current);
        opened.addLast(current);
        background.execute(() -> {
            if (previous != null) {
                previous.close();
            }
            deleteOldFiles();
        });
    }

    private boolean continuable(String file) {
        return maxBytes == 0 || new File(file).length() < maxBytes;
    }

    private long nextSwitch(long nowMillis) {
        ZonedDateTime now = Instant.ofEpochMilli(nowMillis).atZone(name.zone());
        ZonedDateTime next = switch (switchTf) {
            case NONE -> null;
            case HOUR -> now.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            case DAY -> now.toLocalDate().plusDays(1).atStartOfDay(name.zone());
            case MONTH -> now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(name.zone());
        };
        return next == null ? Long.MAX_VALUE : next.toInstant().toEpochMilli();
    }

    /**
     * Deletes the oldest files of this log beyond MAXFILES, never the one in use: first those found at the start (by
     * time of last change), then those it opened, in order (a file's last change says little: its lines are
     * written after the next file was opened). Under this lock: a file being opened is on the disk but not yet in
     * {@link #opened}.
     */
    private synchronized void deleteOldFiles() {
        if (maxFiles == 0) {
            return;
        }
        File dir = Path.of(file).toAbsolutePath().getParent().toFile();
        Pattern mine = LogFileName.of(Path.of(name.toString()).getFileName().toString(), name.zone()).files();
        File[] files = dir.listFiles(f -> f.isFile() && mine.matcher(f.getName()).matches());
        if (files == null || files.length <= maxFiles) {
            return;
        }
        List<String> order = List.copyOf(opened);
        Arrays.sort(files, Comparator.comparingInt((File f) -> order.indexOf(f.getName()))
                .thenComparingLong(File::lastModified).thenComparing(File::getName));
        String inUse = Path.of(file).getFileName().toString();
        int excess = files.length - maxFiles;
        for (File f : files) {
            if (excess == 0) {
                break;
            }
            if (!f.getName().equals(inUse)) {
                if (!f.delete()) {
                    LOG.warn("jwd: cannot delete the old access log file {} (MAXFILES={})", f, maxFiles);
                }
                excess--;
            }
        }
    }

    @Override
    public void close() {
        LineWriter last;
        synchronized (this) {
            last = writer;
        }
        background.execute(last::close);
        background.shutdown();
        try {
            background.awaitTermination(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
