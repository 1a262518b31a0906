package org.jwd.demo;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.demo.DemoBackend.ServerType;

/**
 * An iView ({@code .../iview/<name>}): a click counter kept in the server's session, one per iView, so that an iView
 * whose requests reach another server shows its count start again. {@code ?click=1} counts a click. The page also
 * says how its request came, for the portal page's explanation: whether it started the session here, and the
 * {@code saplb_*} cookie it carried.
 */
final class IViewPage {
    private static final Template PAGE = Template.of("iview.html");

    private final String server;
    private final ServerType type;

    IViewPage(String server, ServerType type) {
        this.server = server;
        this.type = type;
    }

    void serve(HttpServletRequest req, HttpServletResponse resp, String name, Map<String, String> cookies,
               Sessions.Ref session) throws IOException {
        String key = "iview:" + name;
        long count = "1".equals(req.getParameter("click")) ? session.session().increment(key)
                : session.session().get(key);
        String saplb = cookies.entrySet().stream().filter(c -> c.getKey().startsWith("saplb_"))
                .map(c -> c.getKey() + "=" + c.getValue()).findFirst().orElse("");
        resp.setHeader("Cache-Control", "no-store");
        Answers.html(resp, 200, PAGE.with("name", name).with("server", server).with("type", type.label())
                .with("created", session.created()).with("saplb", saplb).with("count", count)
                .with("session", session.id()).text());
    }
}
