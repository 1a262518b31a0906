package org.jwd.it;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

/**
 * The small webapp that {@link TomcatLandscapeIT} deploys in real Tomcats: it counts the requests of its
 * {@code HttpSession} and answers {@code session=<id> count=<n>}, so a lost session shows as a new id and a count
 * back at 1. (Tomcat's {@code SessionExample} keeps at most ten attributes, too few for twenty requests.)
 */
public class SessionCounterServlet extends HttpServlet {
    private static final String COUNT = "count";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        HttpSession session = request.getSession(true);
        AtomicInteger count;
        synchronized (this) {
            count = (AtomicInteger) session.getAttribute(COUNT);
            if (count == null) {
                count = new AtomicInteger();
                session.setAttribute(COUNT, count);
            }
        }
        response.setContentType("text/plain;charset=utf-8");
        response.getWriter().print("session=" + session.getId() + " count=" + count.incrementAndGet());
    }
}
