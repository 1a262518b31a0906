package org.jwd.it;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import org.jwd.demo.DemoBackend;

/**
 * What TLS costs per request: sequential requests over one keep-alive connection for each way a request can
 * take, with the server's tiny ping answer ({@code OK}) so that forwarding is what is timed. The client is a
 * few lines over a socket (no client library's own costs in the figures); the paths are measured in turn,
 * round after round, so that a change in the machine's load touches them all alike. Prints a table (and
 * writes it to {@code target/tls-cost.txt}); every request must succeed, or the run stops.
 *
 * <p>A measurement, run on purpose by {@code src/bench/tls-cost}, not by {@code mvn verify}: its figures depend on
 * the machine and assert nothing. It lives beside the integration tests for their fixtures (the real
 * dispatcher, the demo backend, the test certificates). {@code -Djwd.cost.requests=N} sets the requests per
 * round (default 2000).
 */
public final class TlsCost {
    private static final int REQUESTS = Integer.getInteger("jwd.cost.requests", 2000);
    private static final int ROUNDS = 5;
    private static final String PATH = "/sap/public/icman/ping";

    private TlsCost() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            System.err.println("usage: java [-Djwd.cost.requests=N] -Djwd.projectDir=DIR " + TlsCost.class.getName());
            System.exit(2);
        }
        TestPki pki = TestPki.get();
        SSLSocketFactory tls = pki.clientContext().getSocketFactory();
        String keys = """
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                wdisp/ssl_truststore=%s
                wdisp/ssl_truststore_password=%s
                """.formatted(pki.keyStore("jwd"), TestPki.PASSWORD, pki.trustStore(), TestPki.PASSWORD);
        try (DemoBackend server = DemoBackend.start(DemoBackend.Options.j2ee("s"),
                new DemoBackend.Tls(pki.keyStore("server"), TestPki.PASSWORD))) {
            String servers = """
                    server.s.url=%s
                    server.s.https_url=%s
                    server.s.type=j2ee
                    """.formatted(server.url(), server.httpsUrl());
            try (JwdProcess terminating = JwdProcess.start(keys + servers, Map.of(), "--https-port", "0");
                 JwdProcess reEncrypting = JwdProcess.start(keys + servers + "wdisp/ssl_encrypt=2\nwdisp/HTTPS/port=0\n",
                         Map.of(), "--https-port", "0")) {
                Map<String, Connection> paths = new LinkedHashMap<>();
                paths.put("direct: HTTP client -> server", new Connection(URI.create(server.url()), null));
                paths.put("direct: HTTPS client -> server", new Connection(URI.create(server.httpsUrl()), tls));
                paths.put("plain: HTTP -> jwd -> HTTP", new Connection(terminating.uri(), null));
                paths.put("termination: HTTPS -> jwd -> HTTP (ssl_encrypt=0)",
                        new Connection(terminating.httpsUri(), tls));
                paths.put("re-encryption: HTTPS -> jwd -> HTTPS (ssl_encrypt=2)",
                        new Connection(reEncrypting.httpsUri(), tls));
                paths.put("end-to-end: HTTPS -> jwd (not decrypted) -> HTTPS",
                        new Connection(URI.create("https://127.0.0.1:" + reEncrypting.passthroughPort()), tls));
                report(measure(paths));
                for (Connection c : paths.values()) {
                    c.close();
                }
            }
        }
    }

    /** µs per request for each path: the median of its rounds, after a warm-up round of each. */
    private static Map<String, Double> measure(Map<String, Connection> paths) throws IOException {
        for (Connection c : paths.values()) {
            c.run(REQUESTS);
        }
        Map<String, double[]> rounds = new LinkedHashMap<>();
        paths.keySet().forEach(p -> rounds.put(p, new double[ROUNDS]));
        for (int r = 0; r < ROUNDS; r++) {
            for (Map.Entry<String, Connection> path : paths.entrySet()) {
                long start = System.nanoTime();
                path.getValue().run(REQUESTS);
                rounds.get(path.getKey())[r] = (System.nanoTime() - start) / 1000.0 / REQUESTS;
            }
        }
        Map<String, Double> micros = new LinkedHashMap<>();
        rounds.forEach((path, values) -> {
            Arrays.sort(values);
            micros.put(path, values[ROUNDS / 2]);
        });
        return micros;
    }

    private static void report(Map<String, Double> micros) throws IOException {
        double plain = micros.get("plain: HTTP -> jwd -> HTTP");
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%d sequential keep-alive requests a round, median of %d rounds;"
                + " %d cores, load average %.1f", REQUESTS, ROUNDS, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        lines.add(String.format(Locale.ROOT, "%-54s %11s %13s", "path", "µs/request", "vs plain jwd"));
        micros.forEach((path, us) -> lines.add(String.format(Locale.ROOT, "%-54s %11.0f %+13.0f", path, us,
                us - plain)));
        lines.forEach(System.out::println);
        Files.write(JwdProcess.target().resolve("tls-cost.txt"), lines);
    }

    /** One keep-alive connection, HTTP/1.1 by hand: a GET, the status line, the headers, the body. */
    private static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final byte[] request;

        Connection(URI uri, SSLSocketFactory tls) throws IOException {
            Socket raw = new Socket();
            raw.setTcpNoDelay(true);
            raw.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
            raw.setSoTimeout(30_000);
            if (tls != null) {
                SSLSocket s = (SSLSocket) tls.createSocket(raw, uri.getHost(), uri.getPort(), true);
                s.startHandshake();
                this.socket = s;
            } else {
                this.socket = raw;
            }
            this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            this.out = socket.getOutputStream();
            this.request = ("GET " + PATH + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }

        void run(int n) throws IOException {
            for (int i = 0; i < n; i++) {
                out.write(request);
                out.flush();
                readResponse();
            }
        }

        private void readResponse() throws IOException {
            String status = line();
            if (!status.startsWith("HTTP/1.1 200")) {
                throw new IOException("answered '" + status + "': expected HTTP/1.1 200");
            }
            int length = -1;
            boolean chunked = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String h = header.toLowerCase(Locale.ROOT);
                if (h.startsWith("content-length:")) {
                    length = Integer.parseInt(h.substring(15).strip());
                } else if (h.startsWith("transfer-encoding:") && h.contains("chunked")) {
                    chunked = true;
                }
            }
            if (!chunked) {
                in.readNBytes(length);
                return;
            }
            for (int size = Integer.parseInt(line().strip(), 16); size > 0; size = Integer.parseInt(line().strip(), 16)) {
                in.readNBytes(size);
                line();
            }
            line();
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(64);
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
