package org.jwd.demo;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.demo.DemoBackend.ServerType;

/**
 * An iView ({@code .../iview/<name>}): a click counter kept in the server's session, one per iView, so that an iView
 * whose requests reach another server shows its count start again. {@code ?click=1} counts a click.
 */
final class IViewPage {
    private final String server;
    private final ServerType type;

    IViewPage(String server, ServerType type) {
        this.server = server;
        this.type = type;
    }

    void serve(HttpServletRequest req, HttpServletResponse resp, String name, Sessions.Ref session)
            throws IOException {
        String key = "iview:" + name;
        long count = "1".equals(req.getParameter("click")) ? session.session().increment(key)
                : session.session().get(key);
        String body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>iView " + Answers.escape(name)
                + " on " + Answers.escape(server) + "</title></head>\n<body>\n"
                + "<h2>iView " + Answers.escape(name) + "</h2>\n"
                + "<p>count <span id=\"count\">" + count + "</span></p>\n"
                + "<p>server <span id=\"server\">" + Answers.escape(server) + "</span> (" + type.label() + ")</p>\n"
                + "<p>session <span id=\"session\">" + Answers.escape(session.id()) + "</span></p>\n"
                + "<p><a id=\"click\" href=\"?click=1\">click</a></p>\n"
                + "</body></html>\n";
        resp.setHeader("Cache-Control", "no-store");
        Answers.html(resp, 200, body);
    }
}
