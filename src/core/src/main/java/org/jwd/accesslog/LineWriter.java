package org.jwd.accesslog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One access log file, appended to by a thread of its own: a request only enqueues its line, and when the queue is
 * full (the disk cannot keep up) the line is dropped and counted rather than slowing requests down. What Jetty's
 * {@code AsyncRequestLogWriter} does, without Jetty's server classes: the core runs without them.
 *
 * <p>Under load the writer wakes every {@link #BATCH_NANOS} and writes what came meanwhile with one system call;
 * a request wakes it only when it sleeps for want of lines. Woken by every line (as a blocking queue's taker is),
 * it woke some 4,000 times a second at 15,000 requests a second, for four lines a time: a wake and a write per
 * few requests cost each request more than formatting its line. The lines of a write go through one buffer,
 * whose position after a failed write tells exactly which lines reached the file.
 *
 * <p>When a write fails (a full file system, a directory made read-only, an I/O error) the lines that did not reach
 * the file are counted as dropped ({@link DroppedLines}), the file is closed, and it is opened again (created, when
 * it was deleted to make room) at most once every {@link #REOPEN_INTERVAL_NANOS} when lines come, the lines in
 * between dropped and counted: the log goes on by itself once the disk is writable again.
 * A line cut off by the failure is ended before the next one, so that the file stays a file of lines.
 */
final class LineWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LineWriter.class);
    /** Marks the end of the queue: the writer thread writes what came before it and closes the file. */
    private static final String END = new String("end");
    /** Lines taken from the queue at a time. */
    private static final int BATCH = 1024;
    /** Under load, how long lines gather before the writer wakes: how late a line reaches the file at most. */
    static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** The buffer lines are written from; grows for a longer line. */
    private static final int BUFFER_BYTES = 64 * 1024;
    /** A file that cannot be written is tried again at most this often (a system call for every line is waste). */
    static final long REOPEN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] SEPARATOR = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);

    private final Path file;
    private final BlockingQueue<String> queue;
    private final DroppedLines dropped;
    private final LongSupplier nanoClock;
    private final Thread thread;
    private final long batchNanos;
    /** Whether the writer sleeps until a line comes (the queue was empty): the next line wakes it. */
    private volatile boolean idle;
    /** The writer thread's: where lines are put for a write, and where each line ends in it. */
    private ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final int[] lineEnds = new int[BATCH];
    /** Writes made (system calls that succeeded or failed), for the tests. */
    private volatile long writes;
    /** The open file, {@code null} while it cannot be written; the writer thread's alone once it runs. */
    private FileChannel channel;
    /** Why the file cannot be written; the writer thread's */
    private IOException failure;
    /** {@code nanoClock} when the file may be tried again; the writer thread's */
    private long reopenAtNanos;

    /**
     * Opens {@code file} for appending (creating it) and starts the writer thread.
     *
     * @param dropped   counts the lines that do not reach the file, over all the files of the log
     * @param nanoClock {@link System#nanoTime()}, or a clock a test moves
     * @throws IOException when the file cannot be opened now
     */
    LineWriter(Path file, int capacity, DroppedLines dropped, LongSupplier nanoClock) throws IOException {
        this(file, capacity, dropped, nanoClock, BATCH_NANOS);
    }

    /** @param batchNanos how long lines gather under load ({@link #BATCH_NANOS}; tests choose their own) */
    LineWriter(Path file, int capacity, DroppedLines dropped, LongSupplier nanoClock, long batchNanos)
            throws IOException {
        this.file = file;
        this.batchNanos = batchNanos;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.dropped = dropped;
        this.nanoClock = nanoClock;
        this.channel = open(file);
        this.thread = new Thread(this::drain, "jwd-accesslog-" + file.getFileName());
        thread.setDaemon(true);
        thread.start();
    }

    /** Enqueues {@code line}; drops it when the queue is full. */
    void write(String line) {
        if (!queue.offer(line)) {
            dropped.queueFull(file);
        } else if (idle) {
            idle = false;
            LockSupport.unpark(thread);
        }
    }

    Path file() {
        return file;
    }

    /** Writes the lines queued so far (waiting at most 10 s for them) and closes the file. */
    @Override
    public void close() {
        try {
            boolean queued = queue.offer(END, 10, TimeUnit.SECONDS);
            LockSupport.unpark(thread);
            if (!queued) {
                thread.interrupt();
            }
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes what came, sleeps {@code batchNanos} after a write, and until the next line when none came. */
    private void drain() {
        List<String> batch = new ArrayList<>(BATCH);
        try {
            while (!Thread.currentThread().isInterrupted()) {
                queue.drainTo(batch, BATCH);
                if (batch.isEmpty()) {
                    idle = true;
                    if (queue.isEmpty()) { // a line offered before idle was set is seen here, one after wakes us
                        LockSupport.park(this);
                    }
                    idle = false;
                    continue;
                }
                int end = indexOfEnd(batch);
                write(end < 0 ? batch : batch.subList(0, end));
                if (end >= 0) {
                    return;
                }
                boolean full = batch.size() == BATCH;
                batch.clear();
                if (!full) {
                    LockSupport.parkNanos(this, batchNanos); // close() cuts it short
                }
            }
        } finally {
            closeChannel();
        }
    }

    /** How many writes were made: a test's proof that lines are written together. */
    long writes() {
        return writes;
    }

    private static int indexOfEnd(List<String> batch) {
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i) == END) {
                return i;
            }
        }
        return -1;
    }

    private void write(List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        if (channel == null && !reopen()) {
            dropped.writeFailed(file, lines.size(), failure);
            return;
        }
        int from = 0;
        while (from < lines.size()) {
            int count = fill(lines, from);
            try {
                writes++;
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            } catch (IOException e) {
                failed(e, notWritten(count) + lines.size() - from - count);
                return;
            }
            from += count;
        }
        dropped.written(file);
    }

    /**
     * Puts lines from {@code from} into the buffer, each followed by the separator, as many as fit (at least one:
     * the buffer grows for a longer line).
     *
     * @return how many lines it holds, ready to be written
     */
    private int fill(List<String> lines, int from) {
        buffer.clear();
        int count = 0;
        while (from + count < lines.size()) {
            byte[] line = lines.get(from + count).getBytes(StandardCharsets.UTF_8);
            if (buffer.remaining() < line.length + SEPARATOR.length) {
                if (count > 0) {
                    break;
                }
                buffer = ByteBuffer.allocateDirect(line.length + SEPARATOR.length);
            }
            buffer.put(line).put(SEPARATOR);
            lineEnds[count++] = buffer.position();
        }
        buffer.flip();
        return count;
    }

    /** Of the {@code count} lines in the buffer, those whose bytes did not all reach the file: cut off, dropped. */
    private int notWritten(int count) {
        int reached = buffer.position();
        int lines = 0;
        for (int i = 0; i < count; i++) {
            if (lineEnds[i] > reached) {
                lines++;
            }
        }
        return lines;
    }

    private void failed(IOException cause, int lines) {
        failure = cause;
        closeChannel();
        reopenAtNanos = nanoClock.getAsLong() + REOPEN_INTERVAL_NANOS;
        dropped.writeFailed(file, lines, cause);
    }

    /** Opens the file again when it is time to try; whether it is open now. */
    private boolean reopen() {
        long now = nanoClock.getAsLong();
        if (now - reopenAtNanos < 0) {
            return false;
        }
        try {
            channel = open(file);
            return true;
        } catch (IOException e) {
            failure = e;
            reopenAtNanos = now + REOPEN_INTERVAL_NANOS;
            return false;
        }
    }

    /** Opens {@code file} for appending; a last line cut off (by a full disk, a crash) is ended first. */
    private static FileChannel open(Path file) throws IOException {
        FileChannel opened = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
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
