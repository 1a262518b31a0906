package org.jwd.admin;

import org.jwd.config.AdminConfig;
import static org.jwd.admin.AdminResponses.allowed;
import static org.jwd.admin.AdminResponses.sendJson;
import static org.jwd.admin.AdminResponses.sendText;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

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
 * does not take -> 405. Then {@link AdminApi} answers, or {@link AdminActions} acts.
 *
 * <p>It works on the {@link AdminContext} the composition root put into the servlet context.
 */
public final class AdminServlet extends HttpServlet {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServlet.class);
    private static final String REALM = "Basic realm=\"jwd administration\", charset=\"UTF-8\"";
    /** The page's files: path below /jwd/admin -> resource, content type. */
    private static final Map<String, String[]> FILES = Map.of(
            "/", new String[] {"page/index.html", "text/html;charset=utf-8"},
            "/admin.js", new String[] {"page/admin.js", "text/javascript;charset=utf-8"},
            "/admin.css", new String[] {"page/admin.css", "text/css;charset=utf-8"});
    private static final long HISTORY_INTERVAL_MILLIS = 5000;
    private static final int HISTORY_SAMPLES = 120;

    private AdminContext context;
    private AdminConfig admin;
    private AdminApi api;
    private AdminActions actions;
    private AdminCredentials credentials;
    private LoginBackOff backOff;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    /** the request history's samples on the shared scheduler */
    private ScheduledFuture<?> sampling;

    @Override
    public void init() throws ServletException {
        context = (AdminContext) getServletContext().getAttribute(AdminContext.ATTRIBUTE);
        if (context == null) {
            throw new UnavailableException("jwd: no dispatcher: the configuration was not loaded");
        }
        admin = context.config();
        if (!admin.enabled()) {
            LOG.warn("jwd: the administration interface is off (/jwd/admin/ answers 404): set {} and {} "
                    + "(bin/jwd hash-password makes the hash) to turn it on", AdminConfig.USER, AdminConfig.PASSWORD_HASH);
            return;
        }
        for (Map.Entry<String, String[]> f : FILES.entrySet()) {
            files.put(f.getKey(), pageFile(f.getValue()[0]));
        }
        credentials = new AdminCredentials(admin);
        backOff = LoginBackOff.standard();
        RequestHistory history = new RequestHistory(HISTORY_SAMPLES, HISTORY_INTERVAL_MILLIS, System::currentTimeMillis);
        api = new AdminApi(context, history, System::currentTimeMillis);
        actions = new AdminActions(context, api);
        // Loading Jackson and building the views' serializers takes a second or more on a busy machine: done here,
        // in the background, rather than by the first page load.
        context.scheduler().execute(AdminJson::prepare);
        sampling = context.scheduler().scheduleAtFixedRate(() -> {
            try {
                history.sample(context.dispatcher().state().topology().servers().values());
            } catch (RuntimeException e) {
                LOG.debug("sampling the request history failed", e);
            }
        }, 0, HISTORY_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("jwd: administration interface at /jwd/admin/ for user {}", admin.user());
    }

    private static byte[] pageFile(String resource) throws UnavailableException {
        try (InputStream in = AdminServlet.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnavailableException("jwd: the admin page's file " + resource + " is missing");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UnavailableException("jwd: cannot read " + resource + ": " + e);
        }
    }

    @Override
    public void destroy() {
        if (sampling != null) {
            sampling.cancel(false);
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!admin.enabled()) {
            sendText(response, 404, "Not Found");
            return;
        }
        AdminResponses.securityHeaders(response);
        String address = request.getRemoteAddr();
        Duration wait = backOff.retryAfter(address);
        if (!wait.isZero()) {
            response.setHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
            sendText(response, 429, "jwd: too many wrong credentials from " + address + ": try again later");
            return;
        }
        String authorization = request.getHeader("Authorization");
        if (!credentials.authenticated(authorization)) {
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

    /** The page's files, the metrics, then the API: {@code api/<name>} and {@code api/servers/<id>[/<action>]}. */
    private void route(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        String method = request.getMethod();
        if (path == null) {
            response.sendRedirect(request.getContextPath() + request.getServletPath() + "/");
        } else if (FILES.containsKey(path)) {
            if (allowed(method, response, "GET", "HEAD")) {
                AdminResponses.sendBytes(response, FILES.get(path)[1], files.get(path));
            }
        } else if (path.equals("/metrics")) {
            if (allowed(method, response, "GET", "HEAD")) {
                response.setStatus(200);
                response.setContentType(context.dispatcher().metrics().contentType());
                response.setHeader("Cache-Control", "no-store");
                context.dispatcher().metrics().write(response.getOutputStream());
            }
        } else if (!path.startsWith("/api/")) {
            sendJson(response, AdminApi.Answer.error(404, "nothing at /jwd/admin" + path));
        } else {
            String[] parts = path.substring("/api/".length()).split("/", -1);
            if (parts.length == 1) {
                api(parts[0], request, response);
            } else if (!parts[0].equals("servers") || parts.length > 3 || parts[1].isEmpty()) {
                sendJson(response, AdminApi.Answer.error(404, "no API /jwd/admin" + path));
            } else if (parts.length == 3) {
                action(parts[1], parts[2], request, response);
            } else {
                server(parts[1], request, response);
            }
        }
    }

    /** {@code api/<name>}: the reads, and {@code POST api/reload}. */
    private void api(String name, HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (name.equals("reload")) {
            reload(request, response);
            return;
        }
        if (!allowed(request.getMethod(), response, "GET", "HEAD")) {
            return;
        }
        switch (name) {
            case "status" -> sendJson(response, 200, api.status());
            case "servers" -> sendJson(response, 200, api.servers());
            case "groups" -> sendJson(response, api.groups(request.getParameter("name"),
                    request.getParameter("system")));
            case "systems" -> sendJson(response, 200, api.systems());
            case "sessiontable" -> sendJson(response, 200, api.sessionTable());
            case "config" -> sendJson(response, 200, api.config());
            case "history" -> sendJson(response, 200, api.history());
            case "explain" -> sendJson(response, api.explain(request.getParameter("url"),
                    request.getParameter("method"), Collections.list(request.getHeaders("Cookie")),
                    request.getRemoteAddr(), request.getLocalAddr(), request.getLocalPort()));
            default -> sendJson(response, AdminApi.Answer.error(404, "no API /jwd/admin" + request.getPathInfo()));
        }
    }

    /** {@code POST api/servers/<id>/<action>}: only from this interface's own page (or a script that proves as much). */
    private void action(String id, String action, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!allowed(request.getMethod(), response, "POST") || refusedCrossSite(request, response)) {
            return;
        }
        AdminApi.Answer answer = actions.act(id, action);
        if (answer.status() == 200) {
            LOG.info("jwd: server {}: {} by {} from {}", id, action, admin.user(), request.getRemoteAddr());
        }
        sendJson(response, answer);
    }

    /** {@code api/servers/<id>}: GET reads it, PUT registers it, DELETE deregisters it. */
    private void server(String id, HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
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
                    sendJson(response, actions.deregister(id));
                } else {
                    register(request, response, id);
                }
            }
            default -> allowed(method, response, "GET", "HEAD", "PUT", "DELETE");
        }
    }

    /** An action without the {@link CrossSiteCheck} proofs: answered 403. */
    private static boolean refusedCrossSite(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String refusal = CrossSiteCheck.refusal(request.getScheme(), request.getHeader("Host"),
                request.getHeader("Origin"), request.getHeader("Referer"), request.getHeader(CrossSiteCheck.HEADER));
        if (refusal != null) {
            sendJson(response, AdminApi.Answer.error(403, "jwd: " + refusal));
        }
        return refusal != null;
    }

    /** {@code POST api/reload}: an action, so POST only and with the cross-site proofs, as the server actions. */
    private void reload(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!allowed(request.getMethod(), response, "POST") || refusedCrossSite(request, response)) {
            return;
        }
        AdminApi.Answer answer = actions.reload();
        LOG.info("jwd: configuration reload asked by {} from {}: {}", admin.user(), request.getRemoteAddr(),
                answer.body() instanceof ConfigView.Reload r ? r.outcome() : answer.status());
        sendJson(response, answer);
    }

    private void register(HttpServletRequest request, HttpServletResponse response, String id) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).contains("json")) {
            sendJson(response, AdminApi.Answer.error(415, "a registration is JSON: Content-Type: application/json"));
            return;
        }
        byte[] body = request.getInputStream().readNBytes(AdminJson.MAX_DOCUMENT + 1);
        if (body.length > AdminJson.MAX_DOCUMENT) {
            sendJson(response, AdminApi.Answer.error(413, "a registration has at most " + AdminJson.MAX_DOCUMENT
                    + " bytes"));
            return;
        }
        sendJson(response, actions.register(id, new String(body, StandardCharsets.UTF_8)));
    }
}
