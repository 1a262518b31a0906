package org.jwd.admin;

import static org.jwd.admin.AdminResponses.allowed;
import static org.jwd.admin.AdminResponses.sendJson;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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

import org.jwd.config.AdminConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The administration interface at each {@code icm/HTTP/admin_<xx>}'s {@code PREFIX} ({@code /jwd/admin} by
 * default): the page and its files, the JSON API, the Prometheus metrics. The webapp's listener maps it there, more
 * specifically than the dispatcher's {@code /*}, so these requests are served here and never forwarded.
 *
 * <p>{@link AdminGate} admits a request (listener, client address, credentials, role) or answers it; then the
 * page's files, {@code metrics}, {@link AdminApi}'s reads, or {@link AdminActions}' actions, each action (POST, PUT,
 * DELETE) with the {@link CrossSiteCheck} proofs and logged with its user and client address.
 *
 * <p>It works on the {@link AdminContext} the composition root put into the servlet context.
 */
public final class AdminServlet extends HttpServlet {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServlet.class);
    /** The page's files: path below the prefix -> resource, content type. */
    private static final Map<String, String[]> FILES = Map.of(
            "/", new String[] {"page/index.html", "text/html;charset=utf-8"},
            "/admin.js", new String[] {"page/admin.js", "text/javascript;charset=utf-8"},
            "/admin.css", new String[] {"page/admin.css", "text/css;charset=utf-8"});
    private static final long HISTORY_INTERVAL_MILLIS = 5000;
    private static final int HISTORY_SAMPLES = 120;

    private AdminContext context;
    private AdminGate gate;
    private AdminApi api;
    private AdminActions actions;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    /** the request history's samples on the shared scheduler */
    private ScheduledFuture<?> sampling;

    @Override
    public void init() throws ServletException {
        context = (AdminContext) getServletContext().getAttribute(AdminContext.ATTRIBUTE);
        if (context == null) {
            throw new UnavailableException("jwd: no dispatcher: the configuration was not loaded");
        }
        AdminConfig admin = context.config();
        gate = new AdminGate(admin, LoginBackOff.standard());
        RequestHistory history = new RequestHistory(HISTORY_SAMPLES, HISTORY_INTERVAL_MILLIS, System::currentTimeMillis);
        api = new AdminApi(context, history, System::currentTimeMillis);
        actions = new AdminActions(context, api);
        if (!admin.enabled()) {
            LOG.warn("jwd: the administration interface is off (answers 404): set {} and {} (bin/jwd hash-password "
                    + "makes the hash), or admin.users.<name>.*, to turn it on", AdminConfig.USER,
                    AdminConfig.PASSWORD_HASH);
            return;
        }
        for (Map.Entry<String, String[]> f : FILES.entrySet()) {
            files.put(f.getKey(), pageFile(f.getValue()[0]));
        }
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
        LOG.info("jwd: administration interface {} for users {}", admin.entries(), admin.users());
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
        context.readiness().stopping();
        if (sampling != null) {
            sampling.cancel(false);
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminGate.Pass pass = gate.admit(request, response);
        if (pass != null) {
            route(pass, request, response);
        }
    }

    /** The page's files, the metrics, then the API: {@code api/<name>} and {@code api/servers/<id>[/<action>]}. */
    private void route(AdminGate.Pass pass, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
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
            sendJson(response, AdminApi.Answer.error(404, "nothing at " + request.getServletPath() + path));
        } else {
            String[] parts = path.substring("/api/".length()).split("/", -1);
            if (parts.length == 1) {
                api(pass, parts[0], request, response);
            } else if (!parts[0].equals("servers") || parts.length > 3 || parts[1].isEmpty()) {
                sendJson(response, AdminApi.Answer.error(404, "no API " + request.getServletPath() + path));
            } else if (parts.length == 3) {
                action(pass, parts[1], parts[2], request, response);
            } else {
                server(pass, parts[1], request, response);
            }
        }
    }

    /** {@code api/<name>}: the reads, {@code POST api/reload} and {@code POST api/session}. */
    private void api(AdminGate.Pass pass, String name, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (name.equals("reload") || name.equals("session")) {
            if (allowed(request.getMethod(), response, "POST") && !refusedCrossSite(request, response)) {
                sendJson(response, name.equals("reload") ? reload(pass, request) : lookup(request));
            }
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
            case "discovery" -> sendJson(response, 200, api.discovery());
            case "sessiontable" -> sendJson(response, 200, api.sessionTable());
            case "config" -> sendJson(response, 200, api.config());
            case "history" -> sendJson(response, 200, api.history());
            case "urlmapping" -> sendJson(response, 200, api.urlMapping());
            case "tls" -> sendJson(response, 200, api.tls());
            case "explain" -> sendJson(response, api.explain(request.getParameter("url"),
                    request.getParameter("method"), Collections.list(request.getHeaders("Cookie")),
                    request.getRemoteAddr(), request.getLocalAddr(), request.getLocalPort()));
            default -> sendJson(response, AdminApi.Answer.error(404, "no API " + request.getServletPath()
                    + request.getPathInfo()));
        }
    }

    /** {@code POST api/servers/<id>/<action>}: only from this interface's own page (or a script that proves as much). */
    private void action(AdminGate.Pass pass, String id, String action, HttpServletRequest request,
                        HttpServletResponse response) throws IOException {
        if (!allowed(request.getMethod(), response, "POST") || refusedCrossSite(request, response)) {
            return;
        }
        AdminApi.Answer answer = actions.act(id, action, pass.who(request));
        if (answer.status() == 200) {
            LOG.info("jwd: server {}: {} by {}", id, action, pass.who(request));
        }
        sendJson(response, answer);
    }

    /** {@code api/servers/<id>}: GET reads it, PUT registers it, DELETE deregisters it. */
    private void server(AdminGate.Pass pass, String id, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
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
                AdminApi.Answer answer = refusal != null ? AdminApi.Answer.error(403, "jwd: " + refusal)
                        : method.equals("DELETE") ? actions.deregister(id) : register(request, id);
                if (answer.status() < 300) {
                    LOG.info("jwd: server {}: {} by {}", id, method.equals("DELETE") ? "deregistered"
                            : "registered or renewed", pass.who(request));
                }
                sendJson(response, answer);
            }
            default -> allowed(method, response, "GET", "HEAD", "PUT", "DELETE");
        }
    }

    /** A POST without the {@link CrossSiteCheck} proofs: answered 403. */
    private static boolean refusedCrossSite(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String refusal = CrossSiteCheck.refusal(request.getScheme(), request.getHeader("Host"),
                request.getHeader("Origin"), request.getHeader("Referer"), request.getHeader(CrossSiteCheck.HEADER));
        if (refusal != null) {
            sendJson(response, AdminApi.Answer.error(403, "jwd: " + refusal));
        }
        return refusal != null;
    }

    /** {@code POST api/reload}: an action, logged with who asked and what came of it. */
    private AdminApi.Answer reload(AdminGate.Pass pass, HttpServletRequest request) {
        AdminApi.Answer answer = actions.reload();
        LOG.info("jwd: configuration reload asked by {}: {}", pass.who(request),
                answer.body() instanceof ConfigView.Reload r ? r.outcome() : answer.status());
        return answer;
    }

    /** {@code POST api/session} with the value as the body: never in a URL, never logged. */
    private AdminApi.Answer lookup(HttpServletRequest request) throws IOException {
        byte[] body = request.getInputStream().readNBytes(AdminJson.MAX_DOCUMENT + 1);
        if (body.length > AdminJson.MAX_DOCUMENT) {
            return AdminApi.Answer.error(413, "a session lookup has at most " + AdminJson.MAX_DOCUMENT + " bytes");
        }
        return api.lookup(new String(body, StandardCharsets.UTF_8));
    }

    private AdminApi.Answer register(HttpServletRequest request, String id) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).contains("json")) {
            return AdminApi.Answer.error(415, "a registration is JSON: Content-Type: application/json");
        }
        byte[] body = request.getInputStream().readNBytes(AdminJson.MAX_DOCUMENT + 1);
        if (body.length > AdminJson.MAX_DOCUMENT) {
            return AdminApi.Answer.error(413, "a registration has at most " + AdminJson.MAX_DOCUMENT + " bytes");
        }
        return actions.register(id, new String(body, StandardCharsets.UTF_8));
    }
}
