package org.jwd.demo;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The portal page: a frame per iView, which a browser loads at once. Its iViews are the configured ones
 * ({@code --iviews}, which may lie in other systems behind the same dispatcher), or {@code iview/a} and
 * {@code iview/b} below the portal's own prefix: {@code /portal -> /iview/a}, {@code /irj/portal -> /irj/iview/a}.
 */
final class PortalPage {
    private final String server;
    private final List<String> iviews;

    /** @param iviews the configured iViews' paths; empty for the two below the portal's prefix */
    PortalPage(String server, List<String> iviews) {
        this.server = server;
        this.iviews = List.copyOf(iviews);
    }

    void serve(HttpServletResponse resp, String path, Sessions.Ref session) throws IOException {
        StringBuilder frames = new StringBuilder();
        for (String iview : iviews(path)) {
            // the iframe's id: iview + the iView's name in capitals (iviewA for .../iview/a)
            String frame = "iview" + iview.substring(iview.lastIndexOf('/') + 1).toUpperCase(Locale.ROOT);
            frames.append("<iframe id=\"").append(Answers.escape(frame)).append("\" name=\"")
                    .append(Answers.escape(frame)).append("\" src=\"").append(Answers.escape(iview))
                    .append("\" width=\"45%\" height=\"200\"></iframe>\n");
        }
        String body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Portal on " + Answers.escape(server)
                + "</title></head>\n<body>\n<h1>Portal served by <span id=\"server\">" + Answers.escape(server)
                + "</span></h1>\n<p>session <span id=\"session\">" + Answers.escape(session.id()) + "</span></p>\n"
                + frames
                + "</body></html>\n";
        resp.setHeader("Cache-Control", "no-store");
        Answers.html(resp, 200, body);
    }

    private List<String> iviews(String path) {
        if (!iviews.isEmpty()) {
            return iviews;
        }
        String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String prefix = base.substring(0, base.length() - "portal".length());
        return List.of(prefix + "iview/a", prefix + "iview/b");
    }
}
