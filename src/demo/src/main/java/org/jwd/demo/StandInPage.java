package org.jwd.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The message-server stand-in's own page ({@code standin.html}, at its root): ERP's instances as the stand-in lists
 * them, a button that starts one more ERP instance and one that stops it ({@link ErpLandscape}), so that a user
 * watches jwd's admin page learn of it within {@code wdisp/auto_refresh}, and a button that sends requests through
 * jwd, without cookies, and says which server answered each ({@code X-Served-By}). Its buttons are forms that post
 * and come back to the page (a reload repeats nothing). It is the demo's page, not SAP's: SAP's message server has
 * no such thing.
 */
final class StandInPage extends HttpServlet {
    private static final long serialVersionUID = 1L;
    /** The requests one click sends; new sessions, balanced over ERP's ABAP servers by capacity. */
    static final int REQUESTS = 20;
    static final String REQUEST_PATH = "/sap/bc/echo";
    private static final Template PAGE = Template.of("standin.html");

    private transient volatile ErpLandscape erp;
    /** what the last click on "send" came to, in words */
    private volatile String sent = "";

    /** Serves {@code erp}: until then, 503. */
    void show(ErpLandscape landscape) {
        this.erp = landscape;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        ErpLandscape landscape = erp;
        if (!"/".equals(req.getRequestURI())) {
            Answers.text(resp, 404, "not found: the stand-in serves its page at / and its list at "
                    + MessageServerStandIn.PATH);
        } else if (landscape == null) {
            Answers.text(resp, 503, "starting");
        } else {
            resp.setHeader("Cache-Control", "no-store");
            Answers.html(resp, 200, page(landscape));
        }
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        ErpLandscape landscape = erp;
        if (landscape == null) {
            Answers.text(resp, 503, "starting");
            return;
        }
        switch (req.getRequestURI()) {
            case "/more/start" -> landscape.startMore();
            case "/more/stop" -> landscape.stopMore();
            case "/requests" -> sent = send(landscape.dispatcher());
            default -> {
                Answers.text(resp, 404, "not found: the page's buttons post to /more/start, /more/stop, /requests");
                return;
            }
        }
        resp.setStatus(303);
        resp.setHeader("Location", "/");
    }

    private String page(ErpLandscape landscape) {
        URI jwd = landscape.dispatcher();
        DemoBackend abap = landscape.backends().get(0);
        return PAGE.with("port", landscape.standIn().port()).with("list", MessageServerStandIn.PATH)
                .with("icf", abap.url() + IcfInfoServlet.PATH).with("admin", jwd == null ? "" : jwd + "/jwd/admin/")
                .withMarkup("instances", rows(landscape)).withMarkup("control", control(landscape))
                .with("path", REQUEST_PATH).with("requests", REQUESTS).with("sent", sent)
                .withMarkup("disabled", jwd == null ? " disabled" : "").text();
    }

    private static String rows(ErpLandscape landscape) {
        StringBuilder rows = new StringBuilder();
        for (MessageServerStandIn.Instance i : landscape.standIn().instances()) {
            rows.append("<tr id=\"instance-").append(Answers.escape(i.name())).append("\">")
                    .append(cell("name", i.name())).append(cell("stack", i.abap() ? "ABAP" : "Java"))
                    .append(cell("http", i.host() + ":" + i.httpPort()))
                    .append(cell("capacity", (i.abap() ? "DIAG " : "J2EE ") + "LB=" + i.capacity())).append("</tr>\n");
        }
        return rows.toString();
    }

    private static String cell(String field, String text) {
        return "<td data-field=\"" + field + "\">" + Answers.escape(text) + "</td>";
    }

    private static String control(ErpLandscape landscape) {
        if (landscape.more() == null) {
            return "<form method=\"post\" action=\"/more/start\"><button id=\"start-more\">Start one more ERP instance: "
                    + ErpLandscape.MORE + ", an ABAP server</button></form>";
        }
        return "<form method=\"post\" action=\"/more/stop\"><button id=\"stop-more\">Stop " + ErpLandscape.MORE
                + "</button></form>";
    }

    /** Sends {@link #REQUESTS} requests through jwd, one after another, and counts who answered each. */
    private static String send(URI jwd) {
        if (jwd == null) {
            return "jwd's address is not known yet";
        }
        URI target = jwd.resolve(REQUEST_PATH);
        Map<String, Integer> by = new TreeMap<>();
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        for (int i = 0; i < REQUESTS; i++) {
            String who;
            try {
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(10))
                        .build(), HttpResponse.BodyHandlers.discarding());
                who = r.headers().firstValue("X-Served-By").orElse("jwd's " + r.statusCode());
            } catch (IOException e) {
                who = "no answer (" + e.getClass().getSimpleName() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            by.merge(who, 1, Integer::sum);
        }
        return REQUESTS + " requests to " + target + " at " + LocalTime.now().truncatedTo(ChronoUnit.SECONDS)
                + ", answered by " + by.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
