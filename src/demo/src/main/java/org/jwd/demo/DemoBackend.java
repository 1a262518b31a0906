package org.jwd.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A stand-in for ONE SAP server process (a J2EE server node or an ABAP application server)
 * that jwd dispatches to.
 *
 * <p>Why it exists: jwd's job is to route requests to the right server process: stick a
 * session to the node that created it (via {@code saplb_*} / {@code JSESSIONID} for J2EE,
 * {@code sap-contextid} for ABAP), spread new work across nodes, survive slow or dead nodes,
 * and stream large bodies. Testing that needs backends that behave like SAP servers in exactly
 * the ways a dispatcher can observe, but nothing more: session cookies as SAP sends them, state
 * that is visibly lost when a request lands on the wrong node, a configurable slowness,
 * verifiable up/downloads, and an identity ({@code X-Served-By}) on every answer. Real SAP
 * systems are far too heavy for that, so this is a small real Jetty 12 server.
 *
 * <p>It is test code (never part of the WAR) and is used two ways:
 * <ul>
 *   <li>in-process by integration tests: {@link #start(Options)}, then {@link #url()},
 *       {@link #requestCount()}, {@link #setDelayMillis(long)}, {@link #stop()};</li>
 *   <li>as a separate process by {@code bin/jwd demo}: {@link #main(String[])}, which prints
 *       {@code demo backend <id> ready on http://127.0.0.1:<port>/} once listening and stops on
 *       SIGTERM.</li>
 * </ul>
 *
 * <p>The request behaviour (sessions, endpoints) is in {@link DemoServlet}; this class owns the
 * Jetty server, the options and the test-facing API.
 */
public final class DemoBackend implements AutoCloseable {

    /** The kind of SAP server process being imitated; it decides the session mechanism. */
    public enum ServerType {
        /** SAP J2EE engine: {@code JSESSIONID} + {@code saplb_*} cookies. */
        J2EE,
        /** SAP ABAP application server: {@code sap-contextid} cookie. */
        ABAP;

        /** The lower-case name used on the command line and in {@code X-Server-Type}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses {@code j2ee} or {@code abap} (case-insensitive). */
        public static ServerType parse(String s) {
            for (ServerType t : values()) {
                if (t.label().equalsIgnoreCase(s)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("--type must be j2ee or abap, not '" + s + "'");
        }
    }

    /**
     * Start options, the same as the command line options of {@link #main(String[])}.
     * {@code null} for {@code host}, {@code type}, {@code instance}, {@code node} or {@code name}
     * means the default. Build with {@link #j2ee(String)} / {@link #abap(String)} and the
     * {@code withXxx} methods.
     *
     * @param id               server id, shown everywhere ({@code X-Served-By}, pages, JSON); required
     * @param port             port to listen on, 0 = ephemeral
     * @param host             address to bind to, default {@code 127.0.0.1}
     * @param type             J2EE or ABAP, default J2EE
     * @param delayMillis      every answer waits this long first (default 0)
     * @param iviewDelayMillis extra wait for iView requests only (default 0)
     * @param instance         J2EE instance name in the {@code saplb_*} cookie, default
     *                         {@code J2EE} + a 7-digit number derived from the id
     * @param node             J2EE server node name in the {@code saplb_*} cookie, default the id
     * @param name             ABAP server name inside {@code sap-contextid}, default the id
     * @param iviews           the paths of the portal page's iViews, which may lie in other systems behind the
     *                         same dispatcher ({@code /irj/iview/a}, {@code /erp/iview/b}); empty (the default):
     *                         {@code iview/a} and {@code iview/b} below the portal's own prefix
     */
    public record Options(String id, int port, String host, ServerType type, long delayMillis,
                          long iviewDelayMillis, String instance, String node, String name, List<String> iviews) {

        public Options {
            Objects.requireNonNull(id, "id");
            if (id.isBlank()) {
                throw new IllegalArgumentException("--id must not be empty");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--port must be 0..65535, not " + port);
            }
            if (delayMillis < 0) {
                throw new IllegalArgumentException("--delay-ms must be >= 0, not " + delayMillis);
            }
            if (iviewDelayMillis < 0) {
                throw new IllegalArgumentException("--iview-delay-ms must be >= 0, not " + iviewDelayMillis);
            }
            host = host == null ? "127.0.0.1" : host;
            type = type == null ? ServerType.J2EE : type;
            instance = instance == null ? defaultInstance(id) : instance;
            node = node == null ? id : node;
            name = name == null ? id : name;
            iviews = iviews == null ? List.of() : List.copyOf(iviews);
            for (String iview : iviews) {
                if (!iview.matches("/([^/?#;]+/)*iview/[A-Za-z0-9]+")) {
                    throw new IllegalArgumentException("--iviews: '" + iview + "' is not a path ending in"
                            + " /iview/<name> (letters and digits)");
                }
            }
        }

        /** J2EE server process with the given id and all defaults. */
        public static Options j2ee(String id) {
            return new Options(id, 0, null, ServerType.J2EE, 0, 0, null, null, null, List.of());
        }

        /** ABAP server process with the given id and all defaults. */
        public static Options abap(String id) {
            return new Options(id, 0, null, ServerType.ABAP, 0, 0, null, null, null, List.of());
        }

        public Options withPort(int port) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withHost(String host) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withType(ServerType type) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withDelayMillis(long delayMillis) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withIviewDelayMillis(long iviewDelayMillis) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withInstance(String instance) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withNode(String node) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withName(String name) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name, iviews);
        }

        public Options withIviews(String... iviews) {
            return new Options(id, port, host, type, delayMillis, iviewDelayMillis, instance, node, name,
                    List.of(iviews));
        }

        /** The {@code saplb_*} cookie value this J2EE node sends: {@code (<instance>)<node>}. */
        public String saplbValue() {
            return "(" + instance + ")" + node;
        }

        /**
         * Parses command line options ({@code --opt value} or {@code --opt=value}).
         *
         * @throws IllegalArgumentException naming the offending option
         */
        public static Options parse(String... args) {
            String id = null;
            int port = 0;
            String host = null;
            ServerType type = null;
            long delay = 0;
            long iviewDelay = 0;
            String instance = null;
            String node = null;
            String name = null;
            List<String> iviews = List.of();
            for (int i = 0; i < args.length; i++) {
                String opt = args[i];
                String value;
                int eq = opt.indexOf('=');
                if (opt.startsWith("--") && eq > 0) {
                    value = opt.substring(eq + 1);
                    opt = opt.substring(0, eq);
                } else {
                    value = null;
                }
                if (!KNOWN_OPTIONS.contains(opt)) {
                    throw new IllegalArgumentException("unknown option '" + opt + "'");
                }
                if (value == null) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("option " + opt + " needs a value");
                    }
                    value = args[++i];
                }
                switch (opt) {
                    case "--id" -> id = value;
                    case "--port" -> port = (int) number(opt, value, 65535);
                    case "--host" -> host = value;
                    case "--type" -> type = ServerType.parse(value);
                    case "--delay-ms" -> delay = number(opt, value, Long.MAX_VALUE);
                    case "--iview-delay-ms" -> iviewDelay = number(opt, value, Long.MAX_VALUE);
                    case "--instance" -> instance = value;
                    case "--node" -> node = value;
                    case "--name" -> name = value;
                    case "--iviews" -> iviews = List.of(value.split(","));
                    default -> throw new IllegalArgumentException("unknown option '" + opt + "'");
                }
            }
            if (id == null) {
                throw new IllegalArgumentException("option --id is required");
            }
            return new Options(id, port, host, type, delay, iviewDelay, instance, node, name, iviews);
        }

        private static final java.util.Set<String> KNOWN_OPTIONS = java.util.Set.of(
                "--id", "--port", "--host", "--type", "--delay-ms", "--iview-delay-ms",
                "--instance", "--node", "--name", "--iviews");

        private static long number(String opt, String value, long max) {
            try {
                long n = Long.parseLong(value.trim());
                if (n < 0 || n > max) {
                    throw new IllegalArgumentException("option " + opt + " must be 0.." + max + ", not " + value);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option " + opt + " needs a number, not '" + value + "'");
            }
        }

        private static String defaultInstance(String id) {
            // SAP instance ids look like J2EE + 7 digits, e.g. (J2EE1234500)server1.
            return String.format(Locale.ROOT, "J2EE%05d00", Math.floorMod(id.hashCode(), 100_000));
        }
    }

    static final String USAGE = "usage: DemoBackend --id ID [--port N] [--host ADDR] [--type j2ee|abap]"
            + " [--delay-ms N] [--iview-delay-ms N] [--instance NAME] [--node NAME] [--name NAME]"
            + " [--iviews PATH,PATH...]";

    /**
     * HTTPS for a backend, besides its plain HTTP port: a keystore (PKCS12 or JKS) with the backend's key and
     * certificate. SAP server processes serve both, on two ports (jwd's {@code url} and {@code https_url}).
     *
     * @param clientCertificatesFrom {@code null}, or a truststore (password {@code password}) whose CAs a client's
     *                               certificate must be signed by: a client without one is refused in the handshake,
     *                               as an ICM with {@code icm/HTTPS/verify_client=2} refuses it
     */
    public record Tls(Path keyStore, String password, Path clientCertificatesFrom) {
        public Tls {
            Objects.requireNonNull(keyStore, "keyStore");
            Objects.requireNonNull(password, "password");
        }

        public Tls(Path keyStore, String password) {
            this(keyStore, password, null);
        }
    }

    private final Options options;
    private final Server server;
    private final DemoServlet servlet;
    private final int port;
    private final int httpsPort;

    private DemoBackend(Options options, Server server, DemoServlet servlet, int port, int httpsPort) {
        this.options = options;
        this.server = server;
        this.servlet = servlet;
        this.port = port;
        this.httpsPort = httpsPort;
    }

    /**
     * Starts a backend and returns once it is listening.
     *
     * @throws UncheckedIOException  if the port cannot be bound
     * @throws IllegalStateException if Jetty fails to start for another reason
     */
    public static DemoBackend start(Options options) {
        return start(options, null);
    }

    /**
     * Starts a backend that also serves HTTPS, on a second ephemeral port ({@link #httpsUrl()}), and returns
     * once it is listening on both.
     *
     * @param tls the keystore to serve HTTPS with, or {@code null} for plain HTTP only
     */
    public static DemoBackend start(Options options, Tls tls) {
        Objects.requireNonNull(options, "options");
        // Slow requests sleep on worker threads, so the pool must be big enough that 16-64
        // concurrent slow requests never queue behind each other.
        QueuedThreadPool pool = new QueuedThreadPool(256, 8);
        pool.setName("demo-" + options.id());
        pool.setStopTimeout(500);
        Server server = new Server(pool);
        server.setStopTimeout(0);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // As big as the dispatcher's own bound: headers it lets through must reach the server process.
        http.setRequestHeaderSize(64 * 1024);
        // Accept whatever a dispatcher forwards; judging odd URIs is the dispatcher's job.
        http.setUriCompliance(UriCompliance.LEGACY);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(options.host());
        connector.setPort(options.port());
        // A slow backend (delay-ms) must not be cut off by its own idle timeout.
        connector.setIdleTimeout(300_000);
        connector.setAcceptQueueSize(256);
        server.addConnector(connector);
        ServerConnector https = null;
        if (tls != null) {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(tls.keyStore().toString());
            ssl.setKeyStorePassword(tls.password());
            if (tls.clientCertificatesFrom() != null) {
                ssl.setTrustStorePath(tls.clientCertificatesFrom().toString());
                ssl.setTrustStorePassword(tls.password());
                ssl.setNeedClientAuth(true);
            }
            HttpConfiguration secure = new HttpConfiguration(http);
            // The name a client asks for (SNI) is the client's business here: a backend answers whatever it is.
            SecureRequestCustomizer customizer = new SecureRequestCustomizer();
            customizer.setSniHostCheck(false);
            secure.addCustomizer(customizer);
            https = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"),
                    new HttpConnectionFactory(secure));
            https.setHost(options.host());
            https.setIdleTimeout(300_000);
            https.setAcceptQueueSize(256);
            server.addConnector(https);
        }

        DemoServlet servlet = new DemoServlet(options);
        ServletContextHandler context = new ServletContextHandler("/");
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        context.addServlet(new ServletHolder("demo", servlet), "/*");
        server.setHandler(context);
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly(server);
            throw new UncheckedIOException("demo backend " + options.id() + " cannot listen on "
                    + options.host() + ":" + options.port(), e);
        } catch (Exception e) {
            stopQuietly(server);
            throw new IllegalStateException("demo backend " + options.id() + " failed to start", e);
        }
        return new DemoBackend(options, server, servlet, connector.getLocalPort(),
                https == null ? -1 : https.getLocalPort());
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception ignored) {
            // already failing
        }
    }

    /** The server id (also in {@code X-Served-By}). */
    public String id() {
        return options.id();
    }

    /** The options it was started with (the delays in it are the initial ones). */
    public Options options() {
        return options;
    }

    public ServerType type() {
        return options.type();
    }

    /** The port actually listened on (the ephemeral one if started with port 0). */
    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>} (with the bound host), no trailing slash. */
    public String url() {
        String host = options.host();
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + port;
    }

    /** The HTTPS port, or -1 when started without {@link Tls}. */
    public int httpsPort() {
        return httpsPort;
    }

    /** {@code https://127.0.0.1:<httpsPort>} (with the bound host), or {@code null} without {@link Tls}. */
    public String httpsUrl() {
        return httpsPort < 0 ? null : url().replaceFirst("^http://(.*):\\d+$", "https://$1:" + httpsPort);
    }

    /** {@link #url()} + path, e.g. {@code uri("/sap/bc/echo")}. */
    public URI uri(String path) {
        return URI.create(url() + (path.startsWith("/") ? path : "/" + path));
    }

    /** The {@code saplb_*} cookie value this (J2EE) backend sets: {@code (<instance>)<node>}. */
    public String saplbValue() {
        return options.saplbValue();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** Stops the server; in-flight delayed requests are interrupted. Idempotent. */
    public void stop() {
        if (server.isStopped()) {
            return;
        }
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("demo backend " + id() + " failed to stop", e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** Blocks until the server has stopped. */
    public void join() throws InterruptedException {
        server.join();
    }

    /** Total number of requests answered (including pings, errors and statuses). */
    public long requestCount() {
        return servlet.requestCount();
    }

    /**
     * Number of requests answered for exactly this path: the raw request URI path as received,
     * without query and without {@code ;param} path parameters, e.g. {@code /sap/bc/echo}.
     */
    public long requestCount(String path) {
        return servlet.requestCount(path);
    }

    /** Snapshot of answered requests per path (path as in {@link #requestCount(String)}). */
    public Map<String, Long> requestCounts() {
        return servlet.requestCounts();
    }

    /** Requests currently being handled (e.g. sleeping in a delay). */
    public int inFlight() {
        return servlet.inFlight();
    }

    /** {@code /hold} requests waiting for {@link #release(int)} now. */
    public int held() {
        return servlet.held();
    }

    /** The most {@code /hold} requests that ever waited at once. */
    public int maxHeld() {
        return servlet.maxHeld();
    }

    /** Lets {@code n} {@code /hold} requests (waiting now or to come) answer. */
    public void release(int n) {
        servlet.release(n);
    }

    /** Resets {@link #requestCount()} and the per-path counts to zero. */
    public void resetCounts() {
        servlet.resetCounts();
    }

    /** Every answer first waits this long; may be changed while running. */
    public void setDelayMillis(long millis) {
        servlet.setDelayMillis(millis);
    }

    public long delayMillis() {
        return servlet.delayMillis();
    }

    /** Extra wait for iView requests only; may be changed while running. */
    public void setIviewDelayMillis(long millis) {
        servlet.setIviewDelayMillis(millis);
    }

    public long iviewDelayMillis() {
        return servlet.iviewDelayMillis();
    }

    /** Number of sessions (J2EE: by JSESSIONID, ABAP: by sap-contextid value) this server holds. */
    public int sessionCount() {
        return servlet.sessionCount();
    }

    /** Whether this server holds a session under that JSESSIONID / sap-contextid value. */
    public boolean hasSession(String sessionId) {
        return servlet.hasSession(sessionId);
    }

    /** Forgets all sessions, like a restarted server process (the port stays). */
    public void clearSessions() {
        servlet.clearSessions();
    }

    /** The byte at offset {@code i} of every {@code /download} body: {@code (i*31+7) & 0xff}. */
    public static int patternByte(long i) {
        return DemoServlet.patternByte(i);
    }

    /** CRC32 of the first {@code n} {@code /download} bytes, as 8 lower-case hex digits. */
    public static String patternCrc32(long n) {
        return DemoServlet.patternCrc32(n);
    }

    @Override
    public String toString() {
        return "DemoBackend[" + id() + " " + type().label() + " " + url() + "]";
    }

    /**
     * Runs one backend as a process: see {@link #USAGE}. Prints exactly one line
     * {@code demo backend <id> ready on http://<host>:<port>/} to stdout when listening;
     * exits 2 on a bad option, 1 if it cannot start; stops cleanly on SIGTERM.
     */
    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            PrintStream err = System.err;
            err.println("demo backend: " + e.getMessage());
            err.println(USAGE);
            err.flush();
            System.exit(2);
            return;
        }
        DemoBackend backend;
        try {
            backend = start(options);
        } catch (RuntimeException e) {
            System.err.println("demo backend " + options.id() + ": " + e.getMessage()
                    + (e.getCause() != null ? ": " + e.getCause() : ""));
            System.err.flush();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(backend::stop, "demo-" + options.id() + "-shutdown"));
        System.out.println("demo backend " + options.id() + " ready on " + backend.url() + "/");
        System.out.flush();
        try {
            backend.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            backend.stop();
        }
    }
}
