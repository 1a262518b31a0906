package org.jwd.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo's ERP without jwd: what the message-server stand-in lists and ERP's ABAP server answers for the ICF, and
 * the stand-in's page starting and stopping one more instance, as {@code bin/jwd demo} runs them
 * ({@link ErpLandscape}). {@code DemoInstancesBrowserIT} watches jwd follow it.
 */
class ErpLandscapeIT {
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private ErpLandscape erp;

    @BeforeEach
    void start() {
        erp = ErpLandscape.start(ErpLandscape.Ports.EPHEMERAL, options -> options);
    }

    @AfterEach
    void stop() {
        erp.close();
    }

    private URI standIn(String path) {
        return URI.create("http://127.0.0.1:" + erp.standIn().port() + path);
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(standIn(path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theStandInListsErpsAbapAndJavaServersWithTheirCapacitiesAndTheAbapServerAnswersTheIcfsLists()
            throws Exception {
        DemoBackend abap = erp.backends().get(0);
        DemoBackend java = erp.backends().get(1);

        String list = get(standIn(MessageServerStandIn.PATH + "?version=1.2")).body();
        assertThat(list).startsWith("version 1.2\r\n" + ErpLandscape.ABAP + "\r\nDIAG\t127.0.0.1\t")
                .contains("\tLB=3\r\n", "HTTP\t127.0.0.1\t" + abap.port() + "\t",
                        ErpLandscape.JAVA + "\r\nJ2EE\t127.0.0.1\t" + java.port() + "\tLB=1\r\n")
                .doesNotContain(ErpLandscape.MORE);
        assertThat(get(abap.uri(IcfInfoServlet.PATH + "/icr_urlprefix")).body()).isEqualTo("version 1.0\r\n"
                + "PREFIX=/sap/&CASE=&VHOST=*.*;&STACK=ABAP\r\n"
                + "PREFIX=/sap/bc/gui/&GROUP=WEBGUI&CASE=&VHOST=*.*;&STACK=ABAP\r\n");
        assertThat(get(abap.uri(IcfInfoServlet.PATH + "/icr_groups")).body()).isEqualTo("version 1.0\r\n"
                + ErpLandscape.ABAP + "\r\n" + ErpLandscape.MORE + "\r\n\r\nWEBGUI:" + ErpLandscape.ABAP + ","
                + ErpLandscape.MORE + "\r\n");
    }

    @Test
    void theStandInsPageStartsOneMoreInstanceThatTheListNamesAndStopsIt() throws Exception {
        HttpResponse<String> page = get(standIn("/"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"instance-" + ErpLandscape.ABAP + "\"", "id=\"start-more\"")
                .doesNotContain("id=\"instance-" + ErpLandscape.MORE + "\"")
                .as("no request through jwd before the demo says where it answers").contains("id=\"send\" disabled");

        HttpResponse<String> started = post("/more/start");
        assertThat(started.statusCode()).isEqualTo(303);
        assertThat(started.headers().firstValue("Location")).hasValue("/");
        assertThat(post("/more/start").statusCode()).as("a second click starts no second one").isEqualTo(303);
        DemoBackend more = erp.more();
        assertThat(erp.backends()).hasSize(3).last().isSameAs(more);
        assertThat(get(standIn(MessageServerStandIn.PATH)).body()).endsWith("\r\n\r\n" + ErpLandscape.MORE
                + "\r\nDIAG\t127.0.0.1\t3200\tLB=3\r\nRFC\t127.0.0.1\t3300\t\r\nHTTP\t127.0.0.1\t" + more.port()
                + "\t\r\n");
        assertThat(get(more.uri("/sap/bc/echo")).headers().firstValue("X-Served-By")).hasValue(ErpLandscape.MORE);
        assertThat(get(standIn("/")).body()).contains("id=\"instance-" + ErpLandscape.MORE + "\"", "id=\"stop-more\"");

        assertThat(post("/more/stop").statusCode()).isEqualTo(303);
        assertThat(erp.more()).isNull();
        assertThat(get(standIn(MessageServerStandIn.PATH)).body()).doesNotContain(ErpLandscape.MORE);
        assertThatThrownBy(() -> get(more.uri("/sap/bc/echo"))).isInstanceOf(ConnectException.class);
        assertThat(get(standIn("/")).body()).contains("id=\"start-more\"");
        assertThat(post("/more/stop").statusCode()).as("stopping none is no error").isEqualTo(303);
    }

    @Test
    void theStandInsPageAnswers404ElsewhereAndItsListStaysWhereSapsIs() throws Exception {
        assertThat(get(standIn("/msgserver/text/other")).statusCode()).isEqualTo(404);
        assertThat(post("/more/restart").statusCode()).isEqualTo(404);
        assertThat(get(standIn(MessageServerStandIn.PATH)).statusCode()).isEqualTo(200);
    }
}
