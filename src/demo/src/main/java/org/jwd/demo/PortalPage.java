package org.jwd.demo;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The portal page: a frame per iView, which a browser loads at once, each with the portal's JSESSIONID; below each,
 * the page's script ({@code portal.js}) says which server the iView's session lives on, where jwd sends its requests
 * and why ({@code X-Jwd-Route}). Its iViews are the configured ones ({@code --iviews}, which may lie in other
 * systems behind the same dispatcher), or {@code iview/a} and {@code iview/b} below the portal's own prefix:
 * {@code /portal -> /iview/a}, {@code /irj/portal -> /irj/iview/a}.
 *
 * <p>{@code ?without-table} is the same page with every iView loaded from {@code <prefix>without-table/iview/<name>},
 * which a dispatcher's configuration may send to a system without session tables; every load of it is a new logon (a
 * new JSESSIONID, no {@code saplb_*} cookie), so that its iViews' requests are their session's first ones again.
 */
final class PortalPage {
    static final String WITHOUT_TABLE = "without-table";
    private static final String CSS = Template.resource("portal.css");
    private static final String JS = Template.resource("portal.js");
    private static final Template PAGE = Template.of("portal.html").withMarkup("css", CSS).withMarkup("js", JS);
    private static final String CARD = """
            <article class="iview" id="card-%1$s" data-name="%2$s">
              <h3>iView %2$s <span class="sub">%3$s</span></h3>
              <iframe id="%1$s" name="%1$s" src="%3$s" title="iView %2$s"></iframe>
              <dl class="explain">
                <dt>its session is on</dt><dd data-field="session">…</dd>
                <dt>jwd sends its requests to</dt><dd data-field="next">…</dd>
                <dt>because</dt><dd data-field="reason">…</dd>
                <dt>X-Jwd-Route</dt><dd data-field="route" class="route">…</dd>
              </dl>
              <p data-field="verdict" class="verdict"></p>
            </article>
            """;

    private final String server;
    private final List<String> iviews;
    private final Sessions sessions;

    /** @param iviews the configured iViews' paths; empty for the two below the portal's prefix */
    PortalPage(String server, List<String> iviews, Sessions sessions) {
        this.server = server;
        this.iviews = List.copyOf(iviews);
        this.sessions = sessions;
    }

    void serve(HttpServletRequest req, HttpServletResponse resp, RequestPath path, Map<String, String> cookies)
            throws IOException {
        boolean withoutTable = req.getParameter(WITHOUT_TABLE) != null;
        Sessions.Ref session = withoutTable ? JavaSessions.logon(sessions, resp)
                : JavaSessions.portal(sessions, resp, path.raw(), cookies);
        StringBuilder cards = new StringBuilder();
        for (String iview : iviews(path.path())) {
            cards.append(card(withoutTable ? withoutTable(iview) : iview));
        }
        Template page = PAGE.with("server", server).with("session", session.id())
                .withMarkup("iviews", cards.toString()).with("variant", withoutTable ? WITHOUT_TABLE : "with-table");
        page = withoutTable ? withoutTableTexts(page, path.path()) : withTableTexts(page, path.path());
        resp.setHeader("Cache-Control", "no-store");
        Answers.html(resp, 200, page.text());
    }

    private static Template withTableTexts(Template page, String path) {
        return page.with("badge", "with the temporary session table")
                .withMarkup("switch", "<a id=\"switch\" href=\"" + Answers.escape(path) + "?" + WITHOUT_TABLE
                        + "\">the same page without the temporary session table &rarr;</a>")
                .with("heading", "What the session table prevents")
                .withMarkup("summary", "Your browser sends the iViews' first requests together, each with the portal's"
                        + " <code>JSESSIONID</code> and no <code>saplb_*</code> cookie, which only a server's answer"
                        + " brings. Balanced each on its own, they would land on different servers, and all but one"
                        + " iView would lose its session. jwd binds the <code>JSESSIONID</code> to one server at the"
                        + " first request (the temporary session table, <code>SessionTableTimeout</code>), or learns"
                        + " it from the answer that set it (SAP's session ID table), and sends the others after it.");
    }

    private static Template withoutTableTexts(Template page, String path) {
        return page.with("badge", "without the temporary session table")
                .withMarkup("switch", "<a id=\"switch\" href=\"" + Answers.escape(path)
                        + "\">&larr; the same page with the temporary session table</a>")
                .with("heading", "Without the temporary session table: the race")
                .withMarkup("summary", "This page loads its iViews from <code>&hellip;/without-table/iview/"
                        + "&hellip;</code>, which the demo's configuration sends to a system with SAP's default,"
                        + " <code>SessionTableTimeout=0</code>: only SAP's session ID table, which learns a"
                        + " <code>JSESSIONID</code> from the answer that sets it, too late for requests sent together."
                        + " Every load of this page logs you on anew: a new <code>JSESSIONID</code>, no"
                        + " <code>saplb_*</code> cookie. Reload it to race again.");
    }

    /** An iView's card: its frame (id {@code iview} + its name in capitals: {@code iviewA}) and its explanation. */
    private static String card(String iview) {
        String name = iview.substring(iview.lastIndexOf('/') + 1);
        return CARD.formatted(Answers.escape("iview" + name.toUpperCase(Locale.ROOT)), Answers.escape(name),
                Answers.escape(iview));
    }

    /** {@code /irj/iview/a -> /irj/without-table/iview/a} */
    static String withoutTable(String iview) {
        int at = iview.lastIndexOf("iview/");
        return iview.substring(0, at) + WITHOUT_TABLE + "/" + iview.substring(at);
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
