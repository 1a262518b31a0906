package org.jwd.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The slow clients of {@code src/bench/soak --chaos}: connections that send their request a byte at a time, one byte
 * every {@code pace}: half of them the request head ({@code slow headers}), half a POST's body after a whole head
 * ({@code slow bodies}, 100,000 bytes announced). A connection jwd closes is counted and opened again.
 */
final class SlowClients {
    private static final byte[] HEAD = ("GET /irj/soak/slow HTTP/1.1\r\nHost: soak\r\nX-Slow: "
            + "x".repeat(4000) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    private static final byte[] POST = ("POST /irj/soak/slow HTTP/1.1\r\nHost: soak\r\nContent-Type: text/plain\r\n"
            + "Content-Length: 100000\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private final URI jwd;
    private final int count;
    private final Duration pace;
    private final LongAdder opened = new LongAdder();
    private final LongAdder closedByJwd = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;

    SlowClients(URI jwd, int count, Duration pace) {
        this.jwd = jwd;
        this.count = count;
        this.pace = pace;
    }

    void start() {
        for (int i = 0; i < count; i++) {
            boolean body = i % 2 == 1;
            Thread t = new Thread(() -> loop(body), "soak-slow-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.interrupt();
            t.join(10_000);
        }
    }

    /** "N slow connections (half headers, half bodies), a byte every P ms: opened O, closed by jwd C, answered A" */
    String report() {
        return String.format("slow clients: %d connections (half slow headers, half slow bodies), a byte every %d ms:"
                        + " opened %d, closed by jwd %d, answered by jwd %d", count, pace.toMillis(), opened.sum(),
                closedByJwd.sum(), answered.sum());
    }

    private void loop(boolean body) {
        while (!stop) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(jwd.getHost(), jwd.getPort()), 10_000);
                socket.setSoTimeout(1);
                opened.increment();
                trickle(socket, body);
            } catch (IOException e) {
                if (!stop) {
                    closedByJwd.increment();
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Sends a byte every pace until the request is sent or jwd answers or closes; then the next connection. */
    private void trickle(Socket socket, boolean body) throws IOException, InterruptedException {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        if (body) {
            out.write(POST);
            out.flush();
        }
        int length = body ? 100_000 : HEAD.length;
        for (int i = 0; i < length && !stop; i++) {
            out.write(body ? 'x' : HEAD[i]);
            out.flush();
            Thread.sleep(pace.toMillis());
            if (answeredOrClosed(in)) {
                return;
            }
        }
    }

    /** Whether jwd answered (counted) or closed the connection (thrown: counted by the caller). */
    private boolean answeredOrClosed(InputStream in) throws IOException {
        try {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed by jwd");
            }
            answered.increment();
            return true;
        } catch (java.net.SocketTimeoutException nothingYet) {
            return false;
        }
    }
}
