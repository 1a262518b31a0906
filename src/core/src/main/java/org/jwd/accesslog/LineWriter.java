package org.jwd.accesslog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One access log file, written by the access log's writer thread alone ({@link AccessLogWriter}): lines are put
 * into one buffer and go to the file with one system call when {@link #flush()} is called or the buffer is full.
 * The buffer's position after a failed write tells exactly which lines reached the file.
 *
 * <p>When a write fails (a full file system, a directory made read-only, an I/O error) the lines that did not reach
 * the file are counted as dropped ({@link DroppedLines}), the file is closed, and it is opened again (created, when
 * it was deleted to make room) at most once every {@link #REOPEN_INTERVAL_NANOS} when lines come, the lines in
 * between dropped and counted: the log goes on by itself once the disk is writable again.
 * A line cut off by the failure is ended before the next one, so that the file stays a file of lines.
 */
final class LineWriter {
    private static final Logger LOG = LoggerFactory.getLogger(LineWriter.class);
    /** The buffer lines are written from; grows for a longer line. */
    static final int BUFFER_BYTES = 64 * 1024;
    /** Lines in the buffer at most (where each ends is kept, to count those a failed write cut off). */
    private static final int MAX_LINES = 4096;
    /** A file that cannot be written is tried again at most this often (a system call for every line is waste). */
    static final long REOPEN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] SEPARATOR = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);

    private final Path file;
    private final DroppedLines dropped;
    private final LongSupplier nanoClock;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final int[] lineEnds = new int[MAX_LINES];
    private int lines;
    /** Writes made (system calls that succeeded or failed), for the tests. */
    private long writes;
    /** The open file, {@code null} while it cannot be written. */
    private FileChannel channel;
    /** Why the file cannot be written. */
    private IOException failure;
    /** {@code nanoClock} when the file may be tried again. */
    private long reopenAtNanos;

    /**
     * Opens {@code file} for appending (creating it; emptying it first with {@code truncate}).
     *
     * @param dropped   counts the lines that do not reach the file, over all the files of the log
     * @param nanoClock {@link System#nanoTime()}, or a clock a test moves
     * @throws IOException when the file cannot be opened now
     */
    LineWriter(Path file, boolean truncate, DroppedLines dropped, LongSupplier nanoClock) throws IOException {
        this(file, dropped, nanoClock);
        this.channel = open(file, truncate);
    }

    /** A writer of {@code file} that could not be opened: its lines are dropped until a try opens it again. */
    static LineWriter failed(Path file, IOException cause, DroppedLines dropped, LongSupplier nanoClock) {
        LineWriter writer = new LineWriter(file, dropped, nanoClock);
        writer.failure = cause;
        writer.reopenAtNanos = nanoClock.getAsLong() + REOPEN_INTERVAL_NANOS;
        return writer;
    }

    private LineWriter(Path file, DroppedLines dropped, LongSupplier nanoClock) {
        this.file = file;
        this.dropped = dropped;
        this.nanoClock = nanoClock;
    }

    Path file() {
        return file;
    }

    /** Puts {@code line} into the buffer, writing the buffer first when it has no room for it. */
    void add(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        if (buffer.remaining() < bytes.length + SEPARATOR.length || lines == MAX_LINES) {
            flush();
            if (buffer.capacity() < bytes.length + SEPARATOR.length) {
                buffer = ByteBuffer.allocateDirect(bytes.length + SEPARATOR.length);
            }
        }
        buffer.put(bytes).put(SEPARATOR);
        lineEnds[lines++] = buffer.position();
        if (buffer.capacity() > BUFFER_BYTES && !buffer.hasRemaining()) {
            flush(); // a longer line's own buffer goes at once, and the usual one comes back
            buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        }
    }

    /** Whether lines wait in the buffer. */
    boolean pending() {
        return lines > 0;
    }

    /** Writes the buffer's lines with one system call (or drops and counts them when the file cannot be written). */
    void flush() {
        if (lines == 0) {
            return;
        }
        int count = lines;
        lines = 0;
        buffer.flip();
        try {
            if (channel == null && !reopen()) {
                dropped.writeFailed(file, count, failure);
                return;
            }
            try {
                writes++;
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                dropped.written(file);
            } catch (IOException e) {
                failed(e, notWritten(count));
            }
        } finally {
            buffer.clear();
        }
    }

    /** How many writes were made: a test's proof that lines are written together. */
    long writes() {
        return writes;
    }

    /** Writes what the buffer holds and closes the file. */
    void close() {
        flush();
        closeChannel();
    }

    /** Of the {@code count} lines in the buffer, those whose bytes did not all reach the file: cut off, dropped. */
    private int notWritten(int count) {
        int reached = buffer.position();
        int cut = 0;
        for (int i = 0; i < count; i++) {
            if (lineEnds[i] > reached) {
                cut++;
            }
        }
        return cut;
    }

    private void failed(IOException cause, int count) {
        failure = cause;
        closeChannel();
        reopenAtNanos = nanoClock.getAsLong() + REOPEN_INTERVAL_NANOS;
        dropped.writeFailed(file, count, cause);
    }

    /** Opens the file again when it is time to try; whether it is open now. */
    private boolean reopen() {
        long now = nanoClock.getAsLong();
        if (now - reopenAtNanos < 0) {
            return false;
        }
        try {
            channel = open(file, false);
            return true;
        } catch (IOException e) {
            failure = e;
            reopenAtNanos = now + REOPEN_INTERVAL_NANOS;
            return false;
        }
    }

    /** Opens {@code file} for appending; a last line cut off (by a full disk, a crash) is ended first. */
    private static FileChannel open(Path file, boolean truncate) throws IOException {
        FileChannel opened = truncate
                ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        try {
            long size = opened.size();
            if (size > 0 && lastByte(file, size) != '\n') {
                ByteBuffer separator = ByteBuffer.wrap(SEPARATOR);
                while (separator.hasRemaining()) {
                    opened.write(separator);
                }
            }
            return opened;
        } catch (IOException e) {
            opened.close();
            throw e;
        }
    }

    private static int lastByte(Path file, long size) throws IOException {
        try (FileChannel read = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            return read.read(one, size - 1) == 1 ? one.get(0) : '\n';
        }
    }

    private void closeChannel() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("closing the access log file {}", file, e);
        }
        channel = null;
    }
}
