package org.jwd.demo;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.demo.DemoBackend.Options;
import org.jwd.demo.DemoBackend.ServerType;

/**
 * What one SAP server process looks like to a dispatcher: every answer names its server ({@code X-Served-By}) and
 * type ({@code X-Server-Type}), waits its {@link Delays}, is counted in its {@link Traffic}, and is given by what the
 * path's last segment names ({@link RequestPath}): the portal page, an iView, the BSP page, the {@link Diagnostics}
 * and {@link Faults} endpoints, else a plain page. Every request but the portal's and the ping's uses a session, as
 * the server's type keeps them ({@link JavaSessions}, {@link AbapSessions}).
 *
 * <p>{@code /sap/public/icman/ping} answers {@code OK} without touching sessions (on both types).
 */
final class DemoServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final String PING_PATH = "/sap/public/icman/ping";

    private final String id;
    private final ServerType type;
    private final transient Traffic traffic;
    private final transient Delays delays;
    private final transient Sessions sessions;
    private final transient Faults faults;
    private final transient SessionMechanism mechanism;
    private final transient Diagnostics diagnostics;
    private final transient PortalPage portal;
    private final transient IViewPage iviews;

    DemoServlet(Options options, ServerState state) {
        this.id = options.id();
        this.type = options.type();
        this.traffic = state.traffic();
        this.delays = state.delays();
        this.sessions = state.sessions();
        this.faults = state.faults();
        this.mechanism = type == ServerType.J2EE ? new JavaSessions(sessions, options.saplbValue())
                : new AbapSessions(sessions, options.name());
        this.diagnostics = new Diagnostics(id, type);
        this.portal = new PortalPage(id, options.iviews(), sessions);
        this.iviews = new IViewPage(id, type);
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        traffic.began();
        try {
            RequestPath path = RequestPath.of(req);
            resp.setHeader("X-Served-By", id);
            resp.setHeader("X-Server-Type", type.label());
            if (!delays.await(path.isIview())) {
                return; // interrupted: the server is stopping, nobody gets an answer
            }
            // Counted before the answer is written, so a client that has its answer sees it counted.
            traffic.answering(path.path());
            serve(req, resp, path);
        } finally {
            traffic.ended();
        }
    }

    private void serve(HttpServletRequest req, HttpServletResponse resp, RequestPath path) throws IOException {
        if (path.path().equals(PING_PATH)) {
            Answers.text(resp, 200, "OK");
            return;
        }
        Map<String, String> cookies = Cookies.of(req);
        if (path.last().equals("portal")) {
            portal.serve(req, resp, path, cookies);
            return;
        }
        Sessions.Ref session = mechanism.session(resp, path.raw(), cookies);
        session.session().increment("hits");
        if (path.isIview()) {
            iviews.serve(req, resp, path.iview(), cookies, session);
            return;
        }
        endpoint(req, resp, path, cookies, session);
    }

    private void endpoint(HttpServletRequest req, HttpServletResponse resp, RequestPath path,
                          Map<String, String> cookies, Sessions.Ref session) throws IOException {
        // ?echo echoes whatever the last segment: an OData key or an ADT object name is no endpoint name
        switch ("echo".equals(req.getQueryString()) ? "echo" : path.last()) {
            case "echo" -> diagnostics.echo(req, resp, path.raw(), cookies, session);
            case "bsp.htm" -> Answers.html(resp, 200, BspPage.html(id, session.id(), session.session().get("hits")));
            case "upload" -> diagnostics.upload(req, resp);
            case "download" -> Diagnostics.download(req, resp);
            case "status" -> diagnostics.status(req, resp);
            case "hop" -> diagnostics.hop(resp);
            case "redirect" -> Diagnostics.redirect(req, resp, path.path());
            case "hold" -> faults.hold(resp);
            case "abort" -> Faults.abort(req, resp);
            case "vanish" -> {
                if (!faults.vanish(req)) {
                    page(resp, path.path(), session);
                }
            }
            default -> page(resp, path.path(), session);
        }
    }

    /** Any other path: the server, the path and the session's hits. */
    private void page(HttpServletResponse resp, String path, Sessions.Ref session) throws IOException {
        String server = Answers.escape(id);
        Answers.html(resp, 200, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + server
                + "</title></head>\n<body>\n"
                + "<p>served by <span id=\"server\">" + server + "</span> (" + type.label()
                + ") path <span id=\"path\">" + Answers.escape(path) + "</span></p>\n"
                + "<p>session <span id=\"session\">" + Answers.escape(session.id()) + "</span>, hits <span id=\"hits\">"
                + session.session().get("hits") + "</span></p>\n"
                + "</body></html>\n");
    }
}
