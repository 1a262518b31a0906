package org.jwd.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.demo.DemoBackend.Options;
import org.jwd.demo.DemoBackend.ServerType;

/**
 * The request behaviour of a {@link DemoBackend}: what one SAP server process looks like to a
 * dispatcher.
 *
 * <p>Sessions are handled by hand, not by Jetty's session manager, because the point is to
 * control the ids exactly like SAP does:
 * <ul>
 *   <li><b>J2EE</b>: sessions are keyed by {@code JSESSIONID} (cookie, or {@code ;jsessionid=}
 *       path parameter). An id this server does not know gets a NEW, empty session under the
 *       SAME id (SAP systems share one JSESSIONID across server nodes), so a request that a
 *       dispatcher sends to the wrong node visibly loses its state: counters restart. Whenever a
 *       session is created the answer sets {@code JSESSIONID=<id>} and
 *       {@code saplb_*=(<instance>)<node>} (the cookie name is literally {@code saplb_*}).</li>
 *   <li><b>ABAP</b>: sessions are keyed by the {@code sap-contextid} cookie value; a request
 *       without one gets {@code sap-contextid=SID%3aANON%3a<name>%3a<n>-NEW}. A session id in a mangled URL
 *       segment ({@link BspPage}, sessions without cookies) comes first; {@code .../bsp.htm} is such a page.</li>
 *   <li>The <b>portal</b> page (either type) only ever sets {@code JSESSIONID}, never
 *       {@code saplb_*}: it imitates a portal that shares the session cookie domain with the
 *       backends, which is the situation where a dispatcher without a session table splits a
 *       user's iViews across nodes.</li>
 * </ul>
 *
 * <p>Endpoints are recognised by the LAST path segment (or, for iViews, the last two), so any
 * prefix a dispatcher routes on works: {@code /echo}, {@code /sap/bc/echo} and
 * {@code /irj/echo} all echo. {@code /sap/public/icman/ping} answers {@code OK} without touching
 * sessions (on both types).
 *
 * <p>Cookies are parsed from the raw {@code Cookie} header by hand so that SAP-style names and
 * values ({@code saplb_*}, {@code (J2EE…)node}) are seen exactly as sent, whatever Jetty's
 * cookie compliance mode thinks of them; {@code Set-Cookie} headers are written raw for the
 * same reason.
 */
final class DemoServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** Download chunk size; also the period-aligned pattern block (period of the pattern is 256). */
    private static final int CHUNK = 64 * 1024;
    private static final byte[] PATTERN_CHUNK = new byte[CHUNK];

    static {
        for (int i = 0; i < CHUNK; i++) {
            PATTERN_CHUNK[i] = (byte) patternByte(i);
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PING_PATH = "/sap/public/icman/ping";

    /** One server-side session: named counters, nothing else. */
    static final class Session {
        final String id;
        private final ConcurrentMap<String, AtomicLong> counters = new ConcurrentHashMap<>();

        Session(String id) {
            this.id = id;
        }

        long get(String key) {
            AtomicLong c = counters.get(key);
            return c == null ? 0 : c.get();
        }

        long increment(String key) {
            return counters.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
        }
    }

    /** The session a request uses and whether this request created it. */
    private record SessionRef(Session session, boolean created) { }

    private final transient Options options;
    private final String id;
    private final ServerType type;
    private final transient ConcurrentMap<String, Session> sessions = new ConcurrentHashMap<>();
    private final transient AtomicLong contextCounter = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L);
    private final transient LongAdder total = new LongAdder();
    private final transient ConcurrentMap<String, LongAdder> byPath = new ConcurrentHashMap<>();
    private final transient AtomicInteger inFlight = new AtomicInteger();
    private volatile long delayMillis;
    private volatile long iviewDelayMillis;
    /** {@code /hold} requests wait for a permit of this gate, given by the test. */
    private final transient java.util.concurrent.Semaphore gate = new java.util.concurrent.Semaphore(0);
    private final transient AtomicInteger held = new AtomicInteger();
    private final transient AtomicInteger maxHeld = new AtomicInteger();

    DemoServlet(Options options) {
        this.options = options;
        this.id = options.id();
        this.type = options.type();
        this.delayMillis = options.delayMillis();
        this.iviewDelayMillis = options.iviewDelayMillis();
    }

    // ---------------------------------------------------------------- state for DemoBackend

    long requestCount() {
        return total.sum();
    }

    long requestCount(String path) {
        LongAdder a = byPath.get(path);
        return a == null ? 0 : a.sum();
    }

    Map<String, Long> requestCounts() {
        Map<String, Long> copy = new TreeMap<>();
        byPath.forEach((k, v) -> copy.put(k, v.sum()));
        return Collections.unmodifiableMap(copy);
    }

    int inFlight() {
        return inFlight.get();
    }

    void resetCounts() {
        total.reset();
        byPath.clear();
    }

    void setDelayMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("delay must be >= 0");
        }
        delayMillis = millis;
    }

    long delayMillis() {
        return delayMillis;
    }

    void setIviewDelayMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("iView delay must be >= 0");
        }
        iviewDelayMillis = millis;
    }

    long iviewDelayMillis() {
        return iviewDelayMillis;
    }

    int held() {
        return held.get();
    }

    int maxHeld() {
        return maxHeld.get();
    }

    void release(int requests) {
        gate.release(requests);
    }

    int sessionCount() {
        return sessions.size();
    }

    boolean hasSession(String sessionId) {
        return sessions.containsKey(sessionId);
    }

    void clearSessions() {
        sessions.clear();
    }

    // ---------------------------------------------------------------- dispatch

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        inFlight.incrementAndGet();
        String rawPath = req.getRequestURI() == null ? "/" : req.getRequestURI();
        String path = stripPathParameters(rawPath);
        try {
            resp.setHeader("X-Served-By", id);
            resp.setHeader("X-Server-Type", type.label());
            List<String> segments = segments(path);
            String last = segments.isEmpty() ? "" : segments.get(segments.size() - 1).toLowerCase(Locale.ROOT);
            String previous = segments.size() < 2 ? "" : segments.get(segments.size() - 2).toLowerCase(Locale.ROOT);
            boolean isIview = previous.equals("iview");
            if (!sleep(delayMillis) || (isIview && !sleep(iviewDelayMillis))) {
                return; // interrupted: the server is stopping, nobody gets an answer
            }
            // Counted before the answer is written, so a client that has its answer sees it counted.
            total.increment();
            byPath.computeIfAbsent(path, k -> new LongAdder()).increment();
            if (path.equals(PING_PATH)) {
                text(resp, 200, "OK");
                return;
            }
            Map<String, String> cookies = cookies(req);

            if (last.equals("portal")) {
                portal(resp, path, portalSession(resp, rawPath, cookies));
                return;
            }
            SessionRef session = type == ServerType.J2EE
                    ? j2eeSession(resp, rawPath, cookies)
                    : abapSession(resp, rawPath, cookies);
            session.session().increment("hits");
            if (isIview) {
                iview(req, resp, segments.get(segments.size() - 1), session);
                return;
            }
            // ?echo echoes whatever the last segment: an OData key or an ADT object name is no endpoint name
            switch ("echo".equals(req.getQueryString()) ? "echo" : last) {
                case "echo" -> echo(req, resp, rawPath, cookies, session);
                case "bsp.htm" -> html(resp, 200, BspPage.html(id, session.session().id,
                        session.session().get("hits")));
                case "upload" -> upload(req, resp);
                case "download" -> download(req, resp);
                case "status" -> status(req, resp);
                case "hop" -> hop(resp);
                case "redirect" -> redirect(req, resp, path);
                case "hold" -> hold(resp);
                case "abort" -> abort(req, resp);
                case "vanish" -> vanish(req, resp, path, session);
                default -> page(resp, path, session);
            }
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Sleeps; false if interrupted (the server is stopping), in which case nothing is answered. */
    private static boolean sleep(long millis) {
        if (millis <= 0) {
            return true;
        }
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ---------------------------------------------------------------- sessions

    private SessionRef j2eeSession(HttpServletResponse resp, String rawPath, Map<String, String> cookies) {
        String sid = jsessionId(rawPath, cookies);
        if (sid == null) {
            sid = newSessionId();
        }
        SessionRef ref = lookupOrCreate(sid);
        if (ref.created()) {
            resp.addHeader("Set-Cookie", "JSESSIONID=" + sid + "; Path=/; HttpOnly");
            resp.addHeader("Set-Cookie", "saplb_*=" + options.saplbValue() + "; Path=/");
        }
        return ref;
    }

    /** The session of the mangled URL ({@link BspPage}: sessions without cookies), else of the cookie, else a new one. */
    private SessionRef abapSession(HttpServletResponse resp, String rawPath, Map<String, String> cookies) {
        String fromUrl = BspPage.sessionFromUrl(rawPath);
        if (fromUrl != null) {
            return lookupOrCreate(fromUrl);
        }
        String ctx = cookies.get("sap-contextid");
        if (ctx == null || ctx.isEmpty()) {
            ctx = "SID%3aANON%3a" + options.name() + "%3a" + contextCounter.incrementAndGet() + "-NEW";
            resp.addHeader("Set-Cookie", "sap-contextid=" + ctx + "; Path=/");
        }
        return lookupOrCreate(ctx);
    }

    /** The portal sets only JSESSIONID (when the client has none), never saplb_*. */
    private SessionRef portalSession(HttpServletResponse resp, String rawPath, Map<String, String> cookies) {
        String sid = jsessionId(rawPath, cookies);
        if (sid == null) {
            sid = newSessionId();
            resp.addHeader("Set-Cookie", "JSESSIONID=" + sid + "; Path=/");
        }
        return lookupOrCreate(sid);
    }

    private SessionRef lookupOrCreate(String key) {
        Session existing = sessions.get(key);
        if (existing != null) {
            return new SessionRef(existing, false);
        }
        Session created = new Session(key);
        existing = sessions.putIfAbsent(key, created);
        return existing != null ? new SessionRef(existing, false) : new SessionRef(created, true);
    }

    private static String jsessionId(String rawPath, Map<String, String> cookies) {
        String sid = cookies.get("JSESSIONID");
        if (sid != null && !sid.isEmpty()) {
            return sid;
        }
        int i = rawPath.toLowerCase(Locale.ROOT).indexOf(";jsessionid=");
        if (i < 0) {
            return null;
        }
        int start = i + ";jsessionid=".length();
        int end = start;
        while (end < rawPath.length() && "/;?#".indexOf(rawPath.charAt(end)) < 0) {
            end++;
        }
        return end > start ? rawPath.substring(start, end) : null;
    }

    private static String newSessionId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        StringBuilder sb = new StringBuilder(32);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }

    /** All cookies from the raw Cookie header(s), first occurrence of a name wins. */
    private static Map<String, String> cookies(HttpServletRequest req) {
        Map<String, String> result = new LinkedHashMap<>();
        Enumeration<String> headers = req.getHeaders("Cookie");
        while (headers != null && headers.hasMoreElements()) {
            for (String part : headers.nextElement().split(";")) {
                String p = part.trim();
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                String name = eq < 0 ? p : p.substring(0, eq).trim();
                String value = eq < 0 ? "" : p.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                result.putIfAbsent(name, value);
            }
        }
        return result;
    }

    // ---------------------------------------------------------------- endpoints

    private void echo(HttpServletRequest req, HttpServletResponse resp, String rawPath,
                      Map<String, String> cookies, SessionRef session) throws IOException {
        long bodyBytes = drain(req.getInputStream(), null);
        StringBuilder json = new StringBuilder(512);
        json.append("{\"server\":").append(jsonString(id))
                .append(",\"method\":").append(jsonString(req.getMethod()))
                .append(",\"path\":").append(jsonString(rawPath))
                .append(",\"query\":").append(jsonString(req.getQueryString()))
                .append(",\"headers\":{");
        boolean first = true;
        for (Enumeration<String> names = req.getHeaderNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            if (!first) {
                json.append(',');
            }
            first = false;
            json.append(jsonString(name)).append(":[");
            boolean firstValue = true;
            for (Enumeration<String> values = req.getHeaders(name); values.hasMoreElements(); ) {
                if (!firstValue) {
                    json.append(',');
                }
                firstValue = false;
                json.append(jsonString(values.nextElement()));
            }
            json.append(']');
        }
        json.append("},\"cookies\":{");
        first = true;
        for (Map.Entry<String, String> c : cookies.entrySet()) {
            if (!first) {
                json.append(',');
            }
            first = false;
            json.append(jsonString(c.getKey())).append(':').append(jsonString(c.getValue()));
        }
        json.append("},\"bodyBytes\":").append(bodyBytes)
                .append(",\"type\":").append(jsonString(type.label()))
                .append(",\"session\":").append(jsonString(session.session().id))
                .append(",\"newSession\":").append(session.created())
                .append(",\"scheme\":").append(jsonString(req.getScheme()))
                .append(",\"protocol\":").append(jsonString(req.getProtocol()))
                .append(",\"clientCertificate\":").append(clientCertificate(req))
                .append('}');
        json(resp, 200, json.toString());
    }

    /** The subject of the certificate the client presented in the TLS handshake, as JSON; {@code null} for none. */
    private static String clientCertificate(HttpServletRequest req) {
        Object chain = req.getAttribute("jakarta.servlet.request.X509Certificate");
        return chain instanceof java.security.cert.X509Certificate[] certificates && certificates.length > 0
                ? jsonString(certificates[0].getSubjectX500Principal().getName()) : "null";
    }

    /**
     * A redirect to the sibling {@code next}, as absolute as an SAP server writes it: from the {@code Host} header
     * the request carries, and the protocol of SAP's {@code clientprotocol} header when present (AS Java's
     * {@code ProtocolHeaderName}), else the connection's. Behind a dispatcher that replaces {@code Host} by the
     * server's address, the browser is sent to an address it cannot reach.
     */
    private static void redirect(HttpServletRequest req, HttpServletResponse resp, String path) throws IOException {
        String protocol = req.getHeader("clientprotocol");
        String scheme = protocol == null || protocol.isBlank() ? req.getScheme() : protocol.strip().toLowerCase(Locale.ROOT);
        String next = path.substring(0, path.lastIndexOf('/') + 1) + "next";
        resp.setHeader("Location", scheme + "://" + req.getHeader("Host") + next);
        text(resp, 302, "moved to " + next);
    }

    private void upload(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String method = req.getMethod();
        if (!method.equals("POST") && !method.equals("PUT")) {
            resp.setHeader("Allow", "POST, PUT");
            text(resp, 405, "upload needs POST or PUT, not " + method);
            return;
        }
        CRC32 crc = new CRC32();
        long bytes = drain(req.getInputStream(), crc);
        json(resp, 200, "{\"server\":" + jsonString(id) + ",\"bytes\":" + bytes
                + ",\"crc32\":\"" + crcHex(crc.getValue()) + "\"}");
    }

    private void download(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long n;
        try {
            String p = req.getParameter("bytes");
            n = p == null ? 1024 * 1024 : Long.parseLong(p.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            text(resp, 400, "bytes must be a number >= 0");
            return;
        }
        resp.setStatus(200);
        resp.setContentType("application/octet-stream");
        resp.setContentLengthLong(n);
        if (req.getMethod().equals("HEAD")) {
            return;
        }
        OutputStream out = resp.getOutputStream();
        // Every chunk starts at a multiple of 64 KB, and the pattern repeats every 256 bytes,
        // so every chunk is the same precomputed block.
        long left = n;
        while (left > 0) {
            int len = (int) Math.min(CHUNK, left);
            out.write(PATTERN_CHUNK, 0, len);
            left -= len;
        }
    }

    /**
     * Answers with hop-by-hop headers a proxy must not pass on (one named by {@code Connection}, and the standard
     * ones), next to end-to-end headers it must pass on, some with commas and quotes in their values.
     */
    private void hop(HttpServletResponse resp) throws IOException {
        resp.setHeader("Connection", "X-Server-Hop");
        resp.setHeader("X-Server-Hop", "server secret");
        resp.setHeader("Keep-Alive", "timeout=5, max=100");
        resp.setHeader("Proxy-Authenticate", "Basic realm=\"server\"");
        resp.setHeader("Upgrade", "demo/1");
        resp.setHeader("Proxy-Connection", "keep-alive");
        resp.setHeader("X-End-To-End", "kept");
        // End-to-end values with commas, quotes and spaces, which a proxy passes on as they are.
        resp.setHeader("Content-Disposition", "attachment; filename=\"report, 2026.pdf\"");
        resp.setHeader("X-List", "a, \"b,c\" , d");
        resp.addHeader("X-List", "e");
        text(resp, 200, "hop from " + id);
    }

    private void status(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int code;
        try {
            code = Integer.parseInt(String.valueOf(req.getParameter("code")).trim());
        } catch (NumberFormatException e) {
            text(resp, 400, "code must be a number 200..599");
            return;
        }
        if (code < 200 || code > 599) {
            text(resp, 400, "code must be a number 200..599");
            return;
        }
        String location = req.getParameter("location");
        if (location != null) {
            resp.setHeader("Location", location);
        }
        if (code == 204 || code == 304) {
            resp.setStatus(code);
            return;
        }
        text(resp, code, "status " + code + " from " + id);
    }

    /** Waits until the test releases it: the number waiting at once is exactly the concurrency jwd lets through. */
    private void hold(HttpServletResponse resp) throws IOException {
        maxHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
        boolean released;
        try {
            released = gate.tryAcquire(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } finally {
            held.decrementAndGet();
        }
        text(resp, released ? 200 : 500, released ? "released by " + id : "never released");
    }

    /**
     * Begins an answer of 1 MB (with Content-Length, or chunked with {@code ?chunked=1}), sends {@code ?sent=N}
     * bytes of it (default 256 KB: more than a proxy buffers), then closes the connection: a server process that
     * crashes mid-answer.
     */
    private void abort(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setStatus(200);
        resp.setContentType("application/octet-stream");
        if (req.getParameter("chunked") == null) {
            resp.setContentLength(1024 * 1024);
        }
        String sentParameter = req.getParameter("sent");
        long sent = sentParameter == null ? 256 * 1024 : Long.parseLong(sentParameter);
        OutputStream out = resp.getOutputStream();
        for (long left = sent; left > 0; left -= CHUNK) {
            out.write(PATTERN_CHUNK, 0, (int) Math.min(CHUNK, left));
        }
        out.flush();
        org.eclipse.jetty.ee10.servlet.ServletContextRequest.getServletContextRequest(req).getConnectionMetaData()
                .getConnection().getEndPoint().close();
    }

    /**
     * {@code /vanish?on=<id>}: the server named drops the connection without a byte of an answer, as a server
     * process killed with the request on its way does; the others answer as {@code page} does.
     */
    private void vanish(HttpServletRequest req, HttpServletResponse resp, String path, SessionRef session)
            throws IOException {
        if (id.equals(req.getParameter("on"))) {
            org.eclipse.jetty.ee10.servlet.ServletContextRequest.getServletContextRequest(req).getConnectionMetaData()
                    .getConnection().getEndPoint().close();
            return;
        }
        page(resp, path, session);
    }

    private void portal(HttpServletResponse resp, String path, SessionRef session) throws IOException {
        StringBuilder frames = new StringBuilder();
        for (String iview : iviews(path)) {
            // the iframe's id: iview + the iView's name in capitals (iviewA for .../iview/a)
            String frame = "iview" + iview.substring(iview.lastIndexOf('/') + 1).toUpperCase(Locale.ROOT);
            frames.append("<iframe id=\"").append(html(frame)).append("\" name=\"").append(html(frame))
                    .append("\" src=\"").append(html(iview)).append("\" width=\"45%\" height=\"200\"></iframe>\n");
        }
        String body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Portal on " + html(id)
                + "</title></head>\n<body>\n<h1>Portal served by <span id=\"server\">" + html(id) + "</span></h1>\n"
                + "<p>session <span id=\"session\">" + html(session.session().id) + "</span></p>\n"
                + frames
                + "</body></html>\n";
        resp.setHeader("Cache-Control", "no-store");
        html(resp, 200, body);
    }

    /**
     * The portal page's iViews: the configured ones ({@code --iviews}, which may lie in other systems), or
     * {@code iview/a} and {@code iview/b} below the portal's own prefix: {@code /portal -> /iview/a},
     * {@code /irj/portal -> /irj/iview/a}.
     */
    private List<String> iviews(String path) {
        if (!options.iviews().isEmpty()) {
            return options.iviews();
        }
        String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String prefix = base.substring(0, base.length() - "portal".length());
        return List.of(prefix + "iview/a", prefix + "iview/b");
    }

    private void iview(HttpServletRequest req, HttpServletResponse resp, String name, SessionRef session)
            throws IOException {
        String key = "iview:" + name;
        long count = "1".equals(req.getParameter("click")) ? session.session().increment(key) : session.session().get(key);
        String body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>iView " + html(name) + " on "
                + html(id) + "</title></head>\n<body>\n"
                + "<h2>iView " + html(name) + "</h2>\n"
                + "<p>count <span id=\"count\">" + count + "</span></p>\n"
                + "<p>server <span id=\"server\">" + html(id) + "</span> (" + type.label() + ")</p>\n"
                + "<p>session <span id=\"session\">" + html(session.session().id) + "</span></p>\n"
                + "<p><a id=\"click\" href=\"?click=1\">click</a></p>\n"
                + "</body></html>\n";
        resp.setHeader("Cache-Control", "no-store");
        html(resp, 200, body);
    }

    private void page(HttpServletResponse resp, String path, SessionRef session) throws IOException {
        String body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html(id)
                + "</title></head>\n<body>\n"
                + "<p>served by <span id=\"server\">" + html(id) + "</span> (" + type.label() + ") path <span id=\"path\">"
                + html(path) + "</span></p>\n"
                + "<p>session <span id=\"session\">" + html(session.session().id) + "</span>, hits <span id=\"hits\">"
                + session.session().get("hits") + "</span></p>\n"
                + "</body></html>\n";
        html(resp, 200, body);
    }

    // ---------------------------------------------------------------- helpers

    /** Reads a body to its end through a small buffer, counting (and optionally CRC-ing) it. */
    private static long drain(InputStream in, CRC32 crc) throws IOException {
        byte[] buf = new byte[16 * 1024];
        long count = 0;
        for (int n; (n = in.read(buf)) >= 0; ) {
            if (crc != null) {
                crc.update(buf, 0, n);
            }
            count += n;
        }
        return count;
    }

    static int patternByte(long i) {
        return (int) ((i * 31 + 7) & 0xff);
    }

    static String patternCrc32(long n) {
        CRC32 crc = new CRC32();
        for (long left = n; left > 0; left -= CHUNK) {
            crc.update(PATTERN_CHUNK, 0, (int) Math.min(CHUNK, left));
        }
        return crcHex(crc.getValue());
    }

    static String crcHex(long crc) {
        return String.format(Locale.ROOT, "%08x", crc);
    }

    private static void text(HttpServletResponse resp, int status, String body) throws IOException {
        write(resp, status, "text/plain;charset=utf-8", body + "\n");
    }

    private static void json(HttpServletResponse resp, int status, String body) throws IOException {
        write(resp, status, "application/json;charset=utf-8", body);
    }

    private static void html(HttpServletResponse resp, int status, String body) throws IOException {
        write(resp, status, "text/html;charset=utf-8", body);
    }

    private static void write(HttpServletResponse resp, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        resp.setStatus(status);
        resp.setContentType(contentType);
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    private static String stripPathParameters(String rawPath) {
        if (rawPath.indexOf(';') < 0) {
            return rawPath;
        }
        StringBuilder sb = new StringBuilder(rawPath.length());
        boolean inParam = false;
        for (int i = 0; i < rawPath.length(); i++) {
            char c = rawPath.charAt(i);
            if (c == ';') {
                inParam = true;
            } else if (c == '/') {
                inParam = false;
                sb.append(c);
            } else if (!inParam) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static List<String> segments(String path) {
        List<String> result = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                result.add(s);
            }
        }
        return result;
    }

    static String jsonString(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static String html(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
