package org.jwd.demo;

import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;

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
 *   <li>as a process of its own (the soak test's servers, which it kills): {@link #main(String[])}, which
 *       prints {@code demo backend <id> ready on http://127.0.0.1:<port>/} once listening and stops on
 *       SIGTERM.</li>
 * </ul>
 *
 * <p>This class is the options, the start and the test-facing API. What the server serves is in {@link DemoServlet}
 * (which hands each path to the class that serves it), what it listens on in {@link Listeners}, its command line in
 * {@link BackendProcess}.
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
            return Arrays.stream(values()).filter(t -> t.label().equalsIgnoreCase(s)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("--type must be j2ee or abap, not '" + s + "'"));
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
         * Parses command line options ({@code --opt value} or {@code --opt=value}), as {@link #main} takes them.
         *
         * @throws IllegalArgumentException naming the offending option
         */
        public static Options parse(String... args) {
            return BackendProcess.options(args);
        }

        private static String defaultInstance(String id) {
            // SAP instance ids look like J2EE + 7 digits, e.g. (J2EE1234500)server1.
            return String.format(Locale.ROOT, "J2EE%05d00", Math.floorMod(id.hashCode(), 100_000));
        }
    }

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
    private final ServerState state;
    private final int port;
    private final int httpsPort;

    private DemoBackend(Options options, Server server, ServerState state, int port, int httpsPort) {
        this.options = options;
        this.server = server;
        this.state = state;
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
        Listeners listeners = Listeners.of(options, tls);
        ServerState state = ServerState.of(options);
        ServletContextHandler context = new ServletContextHandler("/");
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        mount(context, options, state);
        listeners.start(context, options);
        return new DemoBackend(options, listeners.server(), state, listeners.http().getLocalPort(),
                listeners.httpsPort());
    }

    /** The servlets a server process serves, by its type: every path is {@link DemoServlet}'s, on either type. */
    private static void mount(ServletContextHandler context, Options options, ServerState state) {
        context.addServlet(new ServletHolder("demo", new DemoServlet(options, state)), "/*");
        IcfInfoServlet.mount(context, options);
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
        return state.traffic().total();
    }

    /**
     * Number of requests answered for exactly this path: the raw request URI path as received,
     * without query and without {@code ;param} path parameters, e.g. {@code /sap/bc/echo}.
     */
    public long requestCount(String path) {
        return state.traffic().answered(path);
    }

    /** Snapshot of answered requests per path (path as in {@link #requestCount(String)}). */
    public Map<String, Long> requestCounts() {
        return state.traffic().byPath();
    }

    /** Requests currently being handled (e.g. sleeping in a delay). */
    public int inFlight() {
        return state.traffic().inFlight();
    }

    /** {@code /hold} requests waiting for {@link #release(int)} now. */
    public int held() {
        return state.faults().held();
    }

    /** The most {@code /hold} requests that ever waited at once. */
    public int maxHeld() {
        return state.faults().maxHeld();
    }

    /** Lets {@code n} {@code /hold} requests (waiting now or to come) answer. */
    public void release(int n) {
        state.faults().release(n);
    }

    /** Resets {@link #requestCount()} and the per-path counts to zero. */
    public void resetCounts() {
        state.traffic().reset();
    }

    /** Every answer first waits this long; may be changed while running. */
    public void setDelayMillis(long millis) {
        state.delays().setMillis(millis);
    }

    public long delayMillis() {
        return state.delays().millis();
    }

    /** Extra wait for iView requests only; may be changed while running. */
    public void setIviewDelayMillis(long millis) {
        state.delays().setIviewMillis(millis);
    }

    public long iviewDelayMillis() {
        return state.delays().iviewMillis();
    }

    /** Number of sessions (J2EE: by JSESSIONID, ABAP: by sap-contextid value) this server holds. */
    public int sessionCount() {
        return state.sessions().count();
    }

    /** Whether this server holds a session under that JSESSIONID / sap-contextid value. */
    public boolean hasSession(String sessionId) {
        return state.sessions().holds(sessionId);
    }

    /** Forgets all sessions, like a restarted server process (the port stays). */
    public void clearSessions() {
        state.sessions().clear();
    }

    /** The byte at offset {@code i} of every {@code /download} body: {@code (i*31+7) & 0xff}. */
    public static int patternByte(long i) {
        return DownloadPattern.byteAt(i);
    }

    /** CRC32 of the first {@code n} {@code /download} bytes, as 8 lower-case hex digits. */
    public static String patternCrc32(long n) {
        return DownloadPattern.crc32(n);
    }

    @Override
    public String toString() {
        return "DemoBackend[" + id() + " " + type().label() + " " + url() + "]";
    }

    /**
     * Runs one backend as a process ({@link BackendProcess}): prints exactly one line
     * {@code demo backend <id> ready on http://<host>:<port>/} to stdout when listening;
     * exits 2 on a bad option, 1 if it cannot start; stops cleanly on SIGTERM.
     */
    public static void main(String[] args) {
        BackendProcess.run(args);
    }
}
