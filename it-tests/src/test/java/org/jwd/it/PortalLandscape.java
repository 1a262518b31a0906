package org.jwd.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jwd.demo.DemoBackend;

/**
 * The portal scenario of the browser tests: three J2EE server processes ({@code j2ee1..3}) behind a real
 * jwd, each serving the demo portal ({@code /portal}, two iframes {@code /iview/a} and {@code /iview/b}).
 * iView answers are delayed by {@link #IVIEW_DELAY_MILLIS}, so the two iframes' first requests of a page
 * load are in flight together, which is the race the temporary session table exists for.
 *
 * <p>{@link Journal} records what the iViews showed over several rounds and names every sign of a lost
 * iView session; the Selenium and the HtmlUnit test share it.
 */
final class PortalLandscape implements AutoCloseable {
    /** Longer than the gap between the iframes' first requests (Chromium: some 15 ms). */
    static final long IVIEW_DELAY_MILLIS = 300;

    private final List<DemoBackend> backends;
    private final JwdProcess jwd;

    private PortalLandscape(List<DemoBackend> backends, JwdProcess jwd) {
        this.backends = backends;
        this.jwd = jwd;
    }

    /** No session table at all: neither the temporary table nor SAP's session ID table learns the JSESSIONID. */
    static final String NO_TABLE = "SessionTableTimeout=0\nwdisp/HTTP/jsessionid_tab_support=false\n";
    /** SAP's defaults: the session ID table learns the JSESSIONID a server sets; no request-time binding. */
    static final String SAP_DEFAULTS = "";
    /** The temporary session table on, on top of SAP's table: JSESSIONIDs are bound at request time too. */
    static final String TEMPORARY_TABLE = "SessionTableTimeout=60s\n";

    /**
     * @param sessionTables the session table's configuration lines: {@link #NO_TABLE}, {@link #SAP_DEFAULTS} or
     *                      {@link #TEMPORARY_TABLE}
     */
    static PortalLandscape start(String sessionTables) {
        List<DemoBackend> backends = new ArrayList<>();
        try {
            StringBuilder config = new StringBuilder();
            for (int i = 1; i <= 3; i++) {
                DemoBackend backend = DemoBackend.start(
                        DemoBackend.Options.j2ee("j2ee" + i).withIviewDelayMillis(IVIEW_DELAY_MILLIS));
                backends.add(backend);
                String id = backend.id();
                config.append("server.").append(id).append(".url=").append(backend.url()).append('\n')
                        .append("server.").append(id).append(".type=j2ee\n")
                        // what its saplb_* cookie carries, so that jwd recognises the cookie as valid
                        .append("server.").append(id).append(".lb_id=").append(backend.saplbValue()).append('\n');
            }
            config.append(sessionTables).append("jwd.debug_headers=true\n");
            return new PortalLandscape(List.copyOf(backends), JwdProcess.start(config.toString()));
        } catch (RuntimeException | Error e) {
            backends.forEach(DemoBackend::close);
            throw e;
        }
    }

    /** {@code http://127.0.0.1:<jwd port><path>} */
    String url(String path) {
        return jwd.uri(path).toString();
    }

    List<DemoBackend> backends() {
        return backends;
    }

    /** Which servers hold the session, and what each answered: for failure messages. */
    String report(String sessionId) {
        StringBuilder sb = new StringBuilder("servers behind jwd (").append(jwd).append("):");
        for (DemoBackend b : backends) {
            sb.append("\n  ").append(b.id()).append(" (saplb ").append(b.saplbValue()).append("): ")
                    .append(sessionId != null && b.hasSession(sessionId) ? "holds" : "does not hold")
                    .append(" session ").append(sessionId)
                    .append("; answered /portal ").append(b.requestCount("/portal"))
                    .append(", /iview/a ").append(b.requestCount("/iview/a"))
                    .append(", /iview/b ").append(b.requestCount("/iview/b"));
        }
        return sb.toString();
    }

    @Override
    public void close() {
        try {
            jwd.close();
        } finally {
            backends.forEach(DemoBackend::close);
        }
    }

    /**
     * What one iView page showed.
     *
     * @param name    {@code a} or {@code b}
     * @param count   the iView's click counter in the session of the server that answered
     * @param server  the server that answered
     * @param session the session id it used
     * @param route   jwd's {@code X-Jwd-Route} header of the answer, {@code null} when not seen (a browser)
     */
    record IView(String name, long count, String server, String session, String route) {
        @Override
        public String toString() {
            return "iView " + name + ": count " + count + " on " + server + " (session " + session + ")"
                    + (route == null ? "" : " [" + route + "]");
        }
    }

    /**
     * Everything the two iViews of one browser (one JSESSIONID) showed, round by round, and every sign that
     * an iView's session was lost. Nothing but clicks changes a count, so after {@code n} clicks in an iView
     * its page must show {@code n}; one server holds the iViews' state, so both must always be on it.
     */
    static final class Journal {
        private static final int MAX_LOSSES_SHOWN = 12;
        private final List<String> lines = new ArrayList<>();
        private final List<String> losses = new ArrayList<>();
        private final Map<String, Long> clicks = new LinkedHashMap<>();
        private final Map<String, String> lastServer = new LinkedHashMap<>();
        private final Set<String> servers = new LinkedHashSet<>();

        /** Both iViews as the (re)loaded portal page showed them, before this round's clicks. */
        void loaded(int round, IView a, IView b) {
            see(round, "load", a);
            see(round, "load", b);
            together(round, "load", a, b);
        }

        /** Both iViews after one click in each. */
        void clicked(int round, IView a, IView b) {
            clicks.merge(a.name(), 1L, Long::sum);
            clicks.merge(b.name(), 1L, Long::sum);
            see(round, "click", a);
            see(round, "click", b);
            together(round, "click", a, b);
        }

        private void see(int round, String phase, IView v) {
            lines.add("round " + round + " " + phase + ": " + v);
            long expected = clicks.getOrDefault(v.name(), 0L);
            if (v.count() != expected) {
                losses.add("round " + round + " " + phase + ": iView " + v.name() + " shows count " + v.count()
                        + " on " + v.server() + " after " + expected + " click(s)"
                        + (v.count() < expected ? ": its session was lost, the count restarted" : ""));
            }
            String before = lastServer.put(v.name(), v.server());
            if (before != null && !before.equals(v.server())) {
                losses.add("round " + round + " " + phase + ": iView " + v.name() + " moved from " + before
                        + " to " + v.server() + ": its session on " + before + " is lost");
            }
            servers.add(v.server());
        }

        private void together(int round, String phase, IView a, IView b) {
            if (!a.server().equals(b.server())) {
                losses.add("round " + round + " " + phase + ": iView " + a.name() + " is on " + a.server()
                        + ", iView " + b.name() + " on " + b.server()
                        + ": the iViews' sessions are split across servers");
            }
        }

        /** Every sign of a lost session, in order; empty when nothing was lost. */
        List<String> losses() {
            return List.copyOf(losses);
        }

        /** Whether anything was lost yet. */
        boolean lostAny() {
            return !losses.isEmpty();
        }

        /** Every server an iView was seen on. */
        Set<String> servers() {
            return Set.copyOf(servers);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("what the iViews showed:");
            lines.forEach(l -> sb.append("\n  ").append(l));
            sb.append("\nsigns of lost iView sessions: ").append(losses.isEmpty() ? "none" : losses.size());
            losses.stream().limit(MAX_LOSSES_SHOWN).forEach(l -> sb.append("\n  ").append(l));
            if (losses.size() > MAX_LOSSES_SHOWN) {
                sb.append("\n  ... and ").append(losses.size() - MAX_LOSSES_SHOWN).append(" more");
            }
            return sb.toString();
        }
    }
}
