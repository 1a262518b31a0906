package org.jwd.demo;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee10.servlet.ServletContextRequest;

/**
 * A server process that misbehaves when a test asks it to: {@code /hold} waits until the test releases it (so that
 * the test sees how many requests a dispatcher lets through at once), {@code /abort} crashes mid-answer and
 * {@code /vanish} drops the connection without a byte.
 */
final class Faults {
    private final String id;
    /** {@code /hold} requests wait for a permit of this gate, given by the test. */
    private final Semaphore gate = new Semaphore(0);
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger maxHeld = new AtomicInteger();

    Faults(String id) {
        this.id = id;
    }

    /** {@code /hold} requests waiting now. */
    int held() {
        return held.get();
    }

    /** The most {@code /hold} requests that ever waited at once. */
    int maxHeld() {
        return maxHeld.get();
    }

    /** Lets {@code requests} {@code /hold} requests, waiting now or to come, answer. */
    void release(int requests) {
        gate.release(requests);
    }

    /** Waits until the test releases it: the number waiting at once is exactly the concurrency jwd lets through. */
    void hold(HttpServletResponse resp) throws IOException {
        maxHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
        boolean released;
        try {
            released = gate.tryAcquire(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } finally {
            held.decrementAndGet();
        }
        Answers.text(resp, released ? 200 : 500, released ? "released by " + id : "never released");
    }

    /**
     * Begins an answer of 1 MB (with Content-Length, or chunked with {@code ?chunked=1}), sends {@code ?sent=N}
     * bytes of it (default 256 KB: more than a proxy buffers), then closes the connection: a server process that
     * crashes mid-answer.
     */
    static void abort(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setStatus(200);
        resp.setContentType("application/octet-stream");
        if (req.getParameter("chunked") == null) {
            resp.setContentLength(1024 * 1024);
        }
        String sent = req.getParameter("sent");
        DownloadPattern.write(resp.getOutputStream(), sent == null ? 256 * 1024 : Long.parseLong(sent));
        resp.getOutputStream().flush();
        closeConnection(req);
    }

    /**
     * {@code /vanish?on=<id>}: the server named drops the connection without a byte of an answer, as a server
     * process killed with the request on its way does.
     *
     * @return whether this server vanished; the others answer as for any page
     */
    boolean vanish(HttpServletRequest req) {
        if (!id.equals(req.getParameter("on"))) {
            return false;
        }
        closeConnection(req);
        return true;
    }

    private static void closeConnection(HttpServletRequest req) {
        ServletContextRequest.getServletContextRequest(req).getConnectionMetaData().getConnection().getEndPoint()
                .close();
    }
}
