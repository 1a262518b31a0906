package org.jwd.admin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.runtime.Dispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The administration interface at {@code /jwd/admin/*}: the page and its files, the JSON API, the Prometheus
 * metrics. Mapped more specifically than the dispatcher's {@code /*}, so these requests are served here before
 * anything else and never forwarded.
 *
 * <p>Every request passes, in order: off (no {@code admin.user}) -> 404; an address in back-off -> 429 with
 * {@code Retry-After}; no or wrong HTTP Basic credentials -> 401 with {@code WWW-Authenticate} (wrong ones count
 * towards the back-off); an action (POST) without the {@link CrossSiteCheck} proofs -> 403; a method the path
 * does not take -> 405. Then {@link AdminApi} answers.
 *
 * <p>Checking a password costs a PBKDF2 derivation (hundreds of milliseconds by design). The page asks every few
 * seconds, so a verified {@code Authorization} value is remembered, as its SHA-256, and not derived again.
 */
public final class AdminServlet extends HttpServlet {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServlet.class);
    private static final String REALM = "Basic realm=\"jwd administration\", charset=\"UTF-8\"";
    private static final String JSON = "application/json;charset=utf-8";
    /** The page's files: path below /jwd/admin -> resource, content type. */
    private static final Map<String, String[]> FILES = Map.of(
            "/", new String[] {"page/index.html", "text/html;charset=utf-8"},
            "/admin.js", new String[] {"page/admin.js", "text/javascript;charset=utf-8"},
            "/admin.css", new String[] {"page/admin.css", "text/css;charset=utf-8"});
    private static final int MAX_REMEMBERED = 16;
    private static final long HISTORY_INTERVAL_MILLIS = 5000;
    private static final int HISTORY_SAMPLES = 120;

    private Dispatcher dispatcher;
    private AdminConfig admin;
    private AdminApi api;
    private LoginBackOff backOff;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    /** SHA-256 (hex) of Authorization values that verified. */
    private final Set<String> verified = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService sampler;

    @Override
    public void init() throws ServletException {
        dispatcher = (Dispatcher) getServletContext().getAttribute(Dispatcher.ATTRIBUTE);
        if (dispatcher == null) {
            throw new UnavailableException("jwd: no dispatcher: the configuration was not loaded");
        }
        admin = dispatcher.admin();
        if (!admin.enabled()) {
            LOG.warn("jwd: the administration interface is off (/jwd/admin/ answers 404): set {} and {} "
                    + "(bin/jwd hash-password makes the hash) to turn it on", AdminConfig.USER, AdminConfig.PASSWORD_HASH);
            return;
        }
        for (Map.Entry<String, String[]> f : FILES.entrySet()) {
            try (InputStream in = AdminServlet.class.getResourceAsStream(f.getValue()[0])) {
                if (in == null) {
                    throw new UnavailableException("jwd: the admin page's file " + f.getValue()[0] + " is missing");
                }
                files.put(f.getKey(), in.readAllBytes());
            } catch (IOException e) {
                throw new UnavailableException("jwd: cannot read " + f.getValue()[0] + ": " + e);
            }
        }
        backOff = LoginBackOff.standard();
        RequestHistory history = new RequestHistory(HISTORY_SAMPLES, HISTORY_INTERVAL_MILLIS, System::currentTimeMillis);
        api = new AdminApi(dispatcher, history, System::currentTimeMillis);
        sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jwd-admin-history");
            t.setDaemon(true);
            return t;
        });
        // Loading Jackson and building the views' serializers takes a second or more on a busy machine: done here,
        // in the background, rather than by the first page load.
        sampler.execute(AdminJson::prepare);
        sampler.scheduleAtFixedRate(() -> {
            try {
                history.sample(dispatcher.topology().servers().values());
            } catch (RuntimeException e) {
                LOG.debug("sampling the request history failed", e);
            }
        }, 0, HISTORY_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("jwd: administration interface at /jwd/admin/ for user {}", admin.user());
    }

    @Override
    public void destroy() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!admin.enabled()) {
            sendText(response, 404, "Not Found");
            return;
        }
        securityHeaders(response);
        String address = request.getRemoteAddr();
        Duration wait = backOff.retryAfter(address);
        if (!wait.isZero()) {
            response.setHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
            sendText(response, 429, "jwd: too many wrong credentials from " + address + ": try again later");
            return;
        }
        String authorization = request.getHeader("Authorization");
        if (!authenticated(authorization)) {
            if (authorization != null) {
                Duration blocked = backOff.failed(address);
                if (!blocked.isZero()) {
                    LOG.warn("jwd: wrong admin credentials from {} again: refused for {} s", address,
                            blocked.toSeconds());
                }
            }
            response.setHeader("WWW-Authenticate", REALM);
            sendText(response, 401, "jwd: the administration interface needs the administrator's credentials");
            return;
        }
        backOff.succeeded(address);
        route(request, response);
    }

    private void route(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        String method = request.getMethod();
        if (path == null) {
            response.sendRedirect(request.getContextPath() + request.getServletPath() + "/");
            return;
        }
        if (FILES.containsKey(path)) {
            if (allowed(method, response, "GET", "HEAD")) {
                byte[] body = files.get(path);
                response.setStatus(200);
                response.setContentType(FILES.get(path)[1]);
                response.setHeader("Cache-Control", "no-cache");
                response.setContentLength(body.length);
                response.getOutputStream().write(body);
            }
            return;
        }
        if (path.equals("/metrics")) {
            if (allowed(method, response, "GET", "HEAD")) {
                response.setStatus(200);
                response.setContentType(dispatcher.metrics().contentType());
                response.setHeader("Cache-Control", "no-store");
                dispatcher.metrics().write(response.getOutputStream());
            }
            return;
        }
        if (!path.startsWith("/api/")) {
            sendJson(response, AdminApi.Answer.error(404, "nothing at /jwd/admin" + path));
            return;
        }
        String[] parts = path.substring("/api/".length()).split("/", -1);
        if (parts.length == 1 && parts[0].equals("reload")) {
            reload(request, response);
            return;
        }
        if (parts.length == 1) {
            if (!allowed(method, response, "GET", "HEAD")) {
                return;
            }
            switch (parts[0]) {
                case "status" -> sendJson(response, 200, api.status());
                case "servers" -> sendJson(response, 200, api.servers());
                case "groups" -> sendJson(response, 200, api.groups(request.getParameter("name")));
                case "sessiontable" -> sendJson(response, 200, api.sessionTable());
                case "config" -> sendJson(response, 200, api.config());
                case "history" -> sendJson(response, 200, api.history());
                case "explain" -> sendJson(response, api.explain(request.getParameter("url"),
                        Collections.list(request.getHeaders("Cookie"))));
                default -> sendJson(response, AdminApi.Answer.error(404, "no API /jwd/admin" + path));
            }
            return;
        }
        if (!parts[0].equals("servers") || parts.length > 3 || parts[1].isEmpty()) {
            sendJson(response, AdminApi.Answer.error(404, "no API /jwd/admin" + path));
            return;
        }
        String id = parts[1];
        if (parts.length == 3) {
            // an action: POST only, and only from this interface's own page (or a script that proves as much)
            if (!allowed(method, response, "POST")) {
                return;
            }
            String refusal = CrossSiteCheck.refusal(request.getScheme(), request.getHeader("Host"),
                    request.getHeader("Origin"), request.getHeader("Referer"),
                    request.getHeader(CrossSiteCheck.HEADER));
            if (refusal != null) {
                sendJson(response, AdminApi.Answer.error(403, "jwd: " + refusal));
                return;
            }
            AdminApi.Answer answer = api.act(id, parts[2]);
            if (answer.status() == 200) {
                LOG.info("jwd: server {}: {} by {} from {}", id, parts[2], admin.user(), request.getRemoteAddr());
            }
            sendJson(response, answer);
            return;
        }
        switch (method) {
            case "GET", "HEAD" -> {
                ServerView server = api.server(id);
                sendJson(response, server == null ? AdminApi.Answer.error(404, "no server " + id)
                        : new AdminApi.Answer(200, server));
            }
            case "PUT", "DELETE" -> {
                // Not methods a cross-site form can send, and a cross-site script needs a CORS preflight that
                // jwd never approves; a browser that sends one anyway names its origin, which must be this one.
                String origin = request.getHeader("Origin");
                String refusal = origin == null ? null : CrossSiteCheck.refusal(request.getScheme(),
                        request.getHeader("Host"), origin, null, "1");
                if (refusal != null) {
                    sendJson(response, AdminApi.Answer.error(403, "jwd: " + refusal));
                } else if (method.equals("DELETE")) {
                    sendJson(response, api.deregister(id));
                } else {
                    register(request, response, id);
                }
            }
            default -> allowed(method, response, "GET", "HEAD", "PUT", "DELETE");
        }
    }

    /** {@code POST api/reload}: an action, so POST only and with the cross-site proofs, as the server actions. */
    private void reload(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!allowed(request.getMethod(), response, "POST")) {
            return;
        }
        String refusal = CrossSiteCheck.refusal(request.getScheme(), request.getHeader("Host"),
                request.getHeader("Origin"), request.getHeader("Referer"), request.getHeader(CrossSiteCheck.HEADER));
        if (refusal != null) {
            sendJson(response, AdminApi.Answer.error(403, "jwd: " + refusal));
            return;
        }
        AdminApi.Answer answer = api.reload();
        LOG.info("jwd: configuration reload asked by {} from {}: {}", admin.user(), request.getRemoteAddr(),
                answer.body() instanceof ConfigView.Reload r ? r.outcome() : answer.status());
        sendJson(response, answer);
    }

    private void register(HttpServletRequest request, HttpServletResponse response, String id) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).contains("json")) {
            sendJson(response, AdminApi.Answer.error(415, "a registration is JSON: Content-Type: application/json"));
            return;
        }
        byte[] body = request.getInputStream().readNBytes(AdminJson.MAX_DOCUMENT + 1);
        if (body.length > AdminJson.MAX_DOCUMENT) {
            sendJson(response, AdminApi.Answer.error(413, "a registration has at most " + AdminJson.MAX_DOCUMENT
                    + " bytes"));
            return;
        }
        sendJson(response, api.register(id, new String(body, StandardCharsets.UTF_8)));
    }

    /** Whether {@code method} is one of {@code allowed}; if not, answers 405 with {@code Allow}. */
    private static boolean allowed(String method, HttpServletResponse response, String... allowed) throws IOException {
        for (String a : allowed) {
            if (a.equals(method)) {
                return true;
            }
        }
        response.setHeader("Allow", String.join(", ", allowed));
        sendJson(response, AdminApi.Answer.error(405, method + " is not allowed here: " + String.join(", ", allowed)));
        return false;
    }

    /**
     * Checks HTTP Basic credentials. The user name is compared in constant time, and the password is checked
     * whether or not the name matched, so that timing tells nothing about either.
     */
    boolean authenticated(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String digest = sha256(authorization);
        if (verified.contains(digest)) {
            return true;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        boolean userOk = MessageDigest.isEqual(decoded.substring(0, colon).getBytes(StandardCharsets.UTF_8),
                admin.user().getBytes(StandardCharsets.UTF_8));
        char[] password = decoded.substring(colon + 1).toCharArray();
        boolean passwordOk = admin.passwordHash().matches(password);
        java.util.Arrays.fill(password, '\0');
        if (userOk && passwordOk) {
            if (verified.size() >= MAX_REMEMBERED) {
                verified.clear();
            }
            verified.add(digest);
            return true;
        }
        return false;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The page may not be framed, sniffed, or load anything but its own files. */
    private static void securityHeaders(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "
                + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'");
    }

    private static void sendJson(HttpServletResponse response, AdminApi.Answer answer) throws IOException {
        sendJson(response, answer.status(), answer.body());
    }

    private static void sendJson(HttpServletResponse response, int status, Object body) throws IOException {
        byte[] bytes = (AdminJson.write(body) + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(JSON);
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private static void sendText(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
