package org.jwd.it;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server that speaks HTTP/1.1 over a raw socket (127.0.0.1, an ephemeral port) and misbehaves as the path of
 * each request asks (the last segment of its path: {@code /irj/cut} is {@code /cut}), as Jetty as a backend never
 * would. {@code /health} and any other path are answered properly, then closed: an active health check finds the
 * server well.
 *
 * <ul>
 *   <li>{@code /malformed}: a status line that is not HTTP, then the connection is closed</li>
 *   <li>{@code /short}: {@code Content-Length: 1000} and 100 bytes, then nothing more on a connection kept open</li>
 *   <li>{@code /cut}: a chunked answer closed in the middle of its first chunk</li>
 *   <li>{@code /silent}: a status line and headers announcing a body, then silence on a connection kept open</li>
 *   <li>{@code /large?bytes=N}: N bytes generated as they are written (never held), at the pace the peer reads</li>
 * </ul>
 */
final class MisbehavingServer implements AutoCloseable {
    /** How long a connection kept open in silence is held at most: longer than any timeout of the tests. */
    private static final int SILENCE_MILLIS = 60_000;

    private static final Set<String> MISBEHAVIOURS = Set.of("/malformed", "/short", "/cut", "/silent", "/large");

    private final ServerSocket socket;
    /** A thread per connection: up to a few hundred at once in these tests. */
    private final ExecutorService connections = Executors.newCachedThreadPool(task -> {
        Thread t = new Thread(task, "misbehaving-connection");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger inProgress = new AtomicInteger();
    private final AtomicInteger misbehaved = new AtomicInteger();
    private final AtomicLong largeWritten = new AtomicLong();

    private MisbehavingServer() throws IOException {
        socket = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "misbehaving-server-" + socket.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static MisbehavingServer start() throws IOException {
        return new MisbehavingServer();
    }

    String url() {
        return "http://127.0.0.1:" + ((InetSocketAddress) socket.getLocalSocketAddress()).getPort();
    }

    /**
     * Exchanges in progress: requests read and their connections not closed yet. Connections jwd opened and sent
     * nothing on yet (idle in its pool) are not counted.
     */
    int inProgress() {
        return inProgress.get();
    }

    /** Requests answered with a misbehaviour so far. */
    int misbehaved() {
        return misbehaved.get();
    }

    /** Bytes of {@code /large} answers written to jwd's connections so far. */
    long largeWritten() {
        return largeWritten.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.execute(() -> serve(connection));
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** One request a connection: every answer ends with the connection, as {@code Connection: close} says. */
    private void serve(Socket connection) {
        try (connection; OutputStream out = connection.getOutputStream()) {
            InputStream in = new BufferedInputStream(connection.getInputStream());
            String head = readHead(in);
            if (head == null) {
                return;
            }
            inProgress.incrementAndGet();
            try {
                String path = head.substring(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
                misbehave(path, connection, in, out);
            } finally {
                inProgress.decrementAndGet();
            }
        } catch (IOException peerGone) {
            // jwd closed its end: what it must do with a server that misbehaves
        }
    }

    private void misbehave(String path, Socket connection, InputStream in, OutputStream out) throws IOException {
        String plain = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String name = plain.substring(plain.lastIndexOf('/')); // jwd forwards /irj/cut as it is
        if (MISBEHAVIOURS.contains(name)) {
            misbehaved.incrementAndGet();
        }
        switch (name) {
            case "/malformed" -> write(out, "HTTP/1.1 two hundred OK\r\nContent-Length: 2\r\n\r\nok");
            case "/short" -> {
                write(out, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + "s".repeat(100));
                silence(connection, in);
            }
            case "/cut" -> write(out, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n"
                    + "c".repeat(100));
            case "/silent" -> {
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n");
                silence(connection, in);
            }
            case "/large" -> large(out, Long.parseLong(path.substring(path.indexOf("bytes=") + "bytes=".length())));
            default -> write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        }
    }

    private void large(OutputStream out, long bytes) throws IOException {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\nContent-Length: "
                + bytes + "\r\n\r\n");
        byte[] block = new byte[64 * 1024];
        Arrays.fill(block, (byte) 'L');
        for (long left = bytes; left > 0; ) {
            int n = (int) Math.min(block.length, left);
            out.write(block, 0, n); // blocks while jwd reads no more: its flow control
            largeWritten.addAndGet(n);
            left -= n;
        }
        out.flush();
    }

    /** Keeps the connection open and says nothing, until jwd closes it (or a minute passes). */
    private static void silence(Socket connection, InputStream in) throws IOException {
        connection.setSoTimeout(SILENCE_MILLIS);
        try {
            while (in.read() != -1) {
                // whatever jwd sends now is not answered
            }
        } catch (SocketTimeoutException ignored) {
            // a minute of silence: give the connection up
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** The request line and headers, or {@code null} at the end of the connection; a request has no body here. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while (matched < 4 && (b = in.read()) != -1) {
            head.write(b);
            matched = (b == '\r' || b == '\n') && "\r\n\r\n".charAt(matched) == b ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return matched == 4 ? head.toString(StandardCharsets.ISO_8859_1) : null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        connections.shutdownNow();
    }
}
