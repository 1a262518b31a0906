package org.jwd.accesslog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One access log file, appended to by a thread of its own: a request only enqueues its line, and when the queue is
 * full (the disk cannot keep up) the line is dropped and counted rather than slowing requests down. What Jetty's
 * {@code AsyncRequestLogWriter} does, without Jetty's server classes: the core runs without them.
 */
final class LineWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LineWriter.class);
    /** Marks the end of the queue: the writer thread writes what came before it and closes the file. */
    private static final String END = new String("end");

    private final Path file;
    private final BlockingQueue<String> queue;
    private final Writer out;
    private final Thread thread;
    private final AtomicLong dropped = new AtomicLong();

    /** Opens {@code file} for appending (creating it) and starts the writer thread. */
    LineWriter(Path file, int capacity) throws IOException {
        this.file = file;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), StandardCharsets.UTF_8), 64 * 1024);
        this.thread = new Thread(this::drain, "jwd-accesslog-" + file.getFileName());
        thread.setDaemon(true);
        thread.start();
    }

    /** Enqueues {@code line}; drops it when the queue is full. */
    void write(String line) {
        if (!queue.offer(line) && dropped.getAndIncrement() == 0) {
            LOG.warn("jwd: the access log {} cannot keep up: lines are dropped", file);
        }
    }

    /** Lines dropped because the queue was full. */
    long dropped() {
        return dropped.get();
    }

    Path file() {
        return file;
    }

    /** Writes the lines queued so far (waiting at most 10 s for them) and closes the file. */
    @Override
    public void close() {
        try {
            if (!queue.offer(END, 10, TimeUnit.SECONDS)) {
                thread.interrupt();
            }
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        try (Writer w = out) {
            while (true) {
                String line = queue.take();
                if (line == END) {
                    return;
                }
                writeLine(w, line);
                // write what is waiting before the next flush: one system call for a burst of lines
                for (String next = queue.poll(); next != null; next = queue.poll()) {
                    if (next == END) {
                        return;
                    }
                    writeLine(w, next);
                }
                flush(w);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.warn("jwd: cannot close the access log file {}: {}", file, e.toString());
        }
    }

    private void writeLine(Writer w, String line) {
        try {
            w.write(line);
            w.write(System.lineSeparator());
        } catch (IOException e) {
            LOG.debug("access log line lost", e);
        }
    }

    private void flush(Writer w) {
        try {
            w.flush();
        } catch (IOException e) {
            LOG.debug("access log lines lost", e);
        }
    }
}
