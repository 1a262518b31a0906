package org.jwd.proxy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.http.HttpServletRequest;

import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.util.Callback;
import org.jwd.limits.SlowClients;

/**
 * The start of a client's body, read before its request takes a server's connection ({@code jwd.request_buffer_size}),
 * as nginx and HAProxy read a body before they connect: a body that trickles in holds a client connection and the
 * bytes it sent, never one of the server's connections (2,000 slow POSTs held every one of them and starved
 * everyone else). The request goes once its whole body is here, or once the buffer is full: then the buffered bytes
 * and the rest stream on, flow-controlled as before. A failed body sends nothing.
 *
 * <pre>
 * buffer 64 KB:  8 KB in chunks   -> kept, kept, ... whole: one chunk of 8 KB written, the request sent
 *                1 MB             -> kept up to 64 KB; the chunk that would not fit: 64 KB written, the request
 *                                    sent, that chunk and the rest written as they come
 *                failed first     -> nothing written, the request never sent
 * </pre>
 *
 * <p>The bytes are copied into one array that grows with what arrived (a chunk's own buffer is the reader's, reused
 * for the next read): a client that sends a byte at a time costs that byte, not a buffer per read. Chunks come one at
 * a time from Jetty's reader of the body; {@link #whenReady} comes from the request's thread, hence the gate.
 */
final class BodyBuffer {
    /** The client request's attribute that holds its body's buffer, from its reader to its sending. */
    private static final String ATTRIBUTE = BodyBuffer.class.getName();
    /** The gate's states besides a waiting send: open (the request went or may go) and closed (the body failed). */
    private static final Runnable OPEN = () -> { };
    private static final Runnable CLOSED = () -> { };
    private static final int FIRST_CAPACITY = 1024;

    private final AsyncRequestContent content;
    private final int limit;
    /** what arrived so far; touched only by the body's reader, one chunk at a time */
    private byte[] bytes = new byte[0];
    private int size;
    /** null: nothing is waiting yet; a send waiting for the body; OPEN; CLOSED */
    private final AtomicReference<Runnable> gate = new AtomicReference<>();

    /**
     * @param content what the request to the server sends as its body
     * @param limit   {@code jwd.request_buffer_size}, positive
     */
    BodyBuffer(AsyncRequestContent content, int limit) {
        this.content = content;
        this.limit = limit;
    }

    /** A buffer for the client request's body, kept in its attribute, when {@code slow} buffers bodies; else null. */
    static BodyBuffer attach(HttpServletRequest clientRequest, AsyncRequestContent content, SlowClients slow) {
        if (!slow.buffersBodies()) {
            return null;
        }
        BodyBuffer body = new BodyBuffer(content, slow.requestBufferSize());
        clientRequest.setAttribute(ATTRIBUTE, body);
        return body;
    }

    /** Runs {@code send} at once for a request without a body buffer, else as {@link #whenReady(Runnable)}. */
    static void whenReady(HttpServletRequest clientRequest, Runnable send) {
        BodyBuffer body = (BodyBuffer) clientRequest.getAttribute(ATTRIBUTE);
        if (body == null) {
            send.run();
        } else {
            body.whenReady(send);
        }
    }

    /** Runs {@code send} once the body is buffered or streams; never when it failed first. */
    void whenReady(Runnable send) {
        if (!gate.compareAndSet(null, send) && gate.get() == OPEN) {
            send.run();
        }
    }

    /**
     * A chunk of the body was read.
     *
     * @return true when it was kept (and {@code read} succeeded); false when it is to be written as usual, flow
     *         controlled: the buffer is flushed then, and the request let go
     */
    boolean keep(byte[] buffer, int offset, int length, Callback read) {
        if (gate.get() == OPEN || gate.get() == CLOSED) {
            return false;
        }
        if (size + length > limit) {
            flushAndOpen();
            return false;
        }
        if (size + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.min(limit, Math.max(size + length, Math.max(FIRST_CAPACITY,
                    bytes.length * 2))));
        }
        System.arraycopy(buffer, offset, bytes, size, length);
        size += length;
        read.succeeded();
        return true;
    }

    /** The whole body was read: what was kept goes on, and so does the request. */
    void complete() {
        if (gate.get() != OPEN && gate.get() != CLOSED) {
            flushAndOpen();
        }
    }

    /**
     * The body failed.
     *
     * @return true when the request never went (and never will): it ends here
     */
    boolean failed() {
        Runnable before = gate.getAndUpdate(g -> g == OPEN ? OPEN : CLOSED);
        bytes = null;
        return before != OPEN;
    }

    private void flushAndOpen() {
        if (size > 0) {
            content.write(ByteBuffer.wrap(bytes, 0, size), Callback.NOOP);
        }
        bytes = null;
        size = 0;
        Runnable waiting = gate.getAndUpdate(g -> g == CLOSED ? CLOSED : OPEN);
        if (waiting != null && waiting != OPEN && waiting != CLOSED) {
            waiting.run();
        }
    }

    /** Bytes kept so far. */
    int size() {
        return size;
    }
}
