package org.jwd.admin;

import static org.jwd.admin.AdminResponses.allowed;
import static org.jwd.admin.AdminResponses.sendText;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.runtime.Readiness;

/**
 * The health URLs a load balancer or Kubernetes probes, without credentials, on every listener or on the
 * administration's alone ({@code jwd.health_urls}):
 * <ul>
 *   <li>{@code /jwd/health/live}: 200 while the process serves requests;</li>
 *   <li>{@code /jwd/health/ready}: 200 when this node should get traffic, else 503; the body says why
 *       ({@link Readiness}).</li>
 * </ul>
 * Answers are short text, never cached; nothing else is here (404).
 */
public final class HealthServlet extends HttpServlet {
    private AdminContext context;

    @Override
    public void init() throws ServletException {
        context = (AdminContext) getServletContext().getAttribute(AdminContext.ATTRIBUTE);
        if (context == null) {
            throw new UnavailableException("jwd: no dispatcher: the configuration was not loaded");
        }
    }

    @Override
    public void destroy() {
        context.readiness().stopping();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        if (!context.config().healthOn(request.getLocalAddr(), request.getLocalPort())
                || !"/live".equals(path) && !"/ready".equals(path)) {
            sendText(response, 404, "Not Found");
            return;
        }
        if (!allowed(request.getMethod(), response, "GET", "HEAD")) {
            return;
        }
        response.setHeader("Cache-Control", "no-store");
        if (path.equals("/live")) {
            sendText(response, 200, "live");
            return;
        }
        Readiness.Answer ready = context.readiness().now();
        sendText(response, ready.ready() ? 200 : 503, ready.reason());
    }
}
