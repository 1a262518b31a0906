package org.jwd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.core.type.TypeReference;
import com.sun.net.httpserver.HttpServer;
import org.jwd.admin.AdminJson;
import org.jwd.admin.GroupView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LgtstTest {
    /** {@code api/groups} of a jwd with two systems, each with its own !J2EE. */
    private static final String ERP_J2EE = """
            {"name":"!J2EE","kind":"internal","type":"j2ee","secure":false,"logon_group_type":null,\
            "ext_rfc":null,"http_balancing":null,"url_prefixes":[],"strategy":"weighted_round_robin",\
            "measure":"load factor","favorite":"erp1","next_request":"erp1","members":[{"id":"erp1","capacity":1,\
            "value":0,"in_flight":0,"served":0,"state":"up","url":"http://10.0.0.1:50000"}],"system":"ERP"}""";
    private static final String PRT_J2EE = """
            {"name":"!J2EE","kind":"internal","type":"j2ee","secure":false,"logon_group_type":null,\
            "ext_rfc":null,"http_balancing":null,"url_prefixes":[],"strategy":"weighted_round_robin",\
            "measure":"load factor","favorite":"prt1","next_request":"prt1","members":[{"id":"prt1","capacity":2,\
            "value":0.5,"in_flight":0,"served":0,"state":"up","url":"http://10.0.0.2:50000"}],"system":"PRT"}""";
    private static final String ERP_REPORT = """
            group !J2EE (internal group, j2ee servers)
            ------------------------------------------
            [erp1] [http://10.0.0.1:50000] [up] [capacity 1] [load factor 0]
            favorite: [erp1] [http://10.0.0.1:50000]
            """;
    private static final Function<String, String> ENV = Map.of("JWD_ADMIN_PASSWORD", "pw")::get;

    /** A stand-in for a jwd's admin API: answers by the query of {@code api/groups}. */
    private HttpServer api;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void stop() {
        if (api != null) {
            api.stop(0);
        }
    }

    /** Starts the stand-in on an ephemeral port of 127.0.0.1, answering {@code answers} by query (status, body). */
    private String serve(Map<String, Map.Entry<Integer, String>> answers) throws IOException {
        api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/jwd/admin/api/groups", exchange -> {
            String query = String.valueOf(exchange.getRequestURI().getRawQuery());
            Map.Entry<Integer, String> answer = answers.getOrDefault(query,
                    Map.entry(500, "{\"error\":\"unexpected query " + query + "\"}"));
            byte[] body = answer.getValue().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.getKey(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        api.start();
        return "http://127.0.0.1:" + api.getAddress().getPort();
    }

    private int lgtst(String... args) {
        return Lgtst.run(args, ENV, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withSystemPrintsThatSystemsGroupsAsWithoutSystems() throws Exception {
        String url = serve(Map.of("system=ERP", Map.entry(200, "[" + ERP_J2EE + "]")));

        assertThat(lgtst("--url", url, "--system", "ERP")).isZero();

        assertThat(out()).isEqualToNormalizingNewlines(ERP_REPORT);
    }

    @Test
    void withSystemAndGroupAsksForThatGroupOfThatSystem() throws Exception {
        String url = serve(Map.of("name=%21J2EE&system=ERP", Map.entry(200, "[" + ERP_J2EE + "]"),
                "name=NOPE&system=ERP", Map.entry(200, "[]")));

        assertThat(lgtst("--url", url, "--group", "!J2EE", "--system", "ERP")).isZero();
        assertThat(out()).isEqualToNormalizingNewlines(ERP_REPORT);
        assertThat(lgtst("--url", url, "--group", "NOPE", "--system", "ERP")).isEqualTo(1);
        assertThat(err()).contains("has no group NOPE in system ERP");
    }

    @Test
    void withoutSystemPrintsEverySystemsGroupsEachUnderItsSid() throws Exception {
        String url = serve(Map.of("null", Map.entry(200, "[" + ERP_J2EE + "," + PRT_J2EE + "]")));

        assertThat(lgtst("--url", url)).isZero();

        assertThat(out()).isEqualToNormalizingNewlines("""
                system ERP
                ==========
                """ + ERP_REPORT + """

                system PRT
                ==========
                group !J2EE (internal group, j2ee servers)
                ------------------------------------------
                [prt1] [http://10.0.0.2:50000] [up] [capacity 2] [load factor 0.5]
                favorite: [prt1] [http://10.0.0.2:50000]
                """);
    }

    @Test
    void anUnknownSidIsAnErrorNamingTheSystemsThereAre() throws Exception {
        String url = serve(Map.of("system=QAS",
                Map.entry(404, "{\"error\":\"no system QAS: the systems are ERP, PRT\"}")));

        assertThat(lgtst("--url", url, "--system", "QAS")).isEqualTo(1);

        assertThat(err()).isEqualToNormalizingNewlines("jwd lgtst: " + url
                + ": no system QAS: the systems are ERP, PRT\n");
        assertThat(out()).isEmpty();
    }

    @Test
    void aSystemOfAJwdWithoutSystemsIsAnError() throws Exception {
        String url = serve(Map.of("system=ERP", Map.entry(404,
                "{\"error\":\"no system ERP: this jwd has no systems (no wdisp/system_\\u003cxx> is configured)\"}")));

        assertThat(lgtst("--url", url, "--system", "ERP")).isEqualTo(1);

        assertThat(err()).contains(url + ": no system ERP: this jwd has no systems (no wdisp/system_<xx> is"
                + " configured)");
    }

    @Test
    void aSystemOfAJwdThatKnowsNoSystemsIsAnErrorToo() throws Exception {
        // a jwd older than systems ignores ?system= and answers every group, none naming a system
        String url = serve(Map.of("system=ERP", Map.entry(200, "[" + ERP_J2EE.replace(",\"system\":\"ERP\"", "")
                + "]")));

        assertThat(lgtst("--url", url, "--system", "ERP")).isEqualTo(1);

        assertThat(err()).contains(url + " has no systems (no wdisp/system_<xx> is configured): leave out --system ERP");
    }

    @Test
    void anAdministrationInterfaceThatIsOffIsStillSaidSo() throws Exception {
        String url = serve(Map.of("null", Map.entry(404, "Not Found")));

        assertThat(lgtst("--url", url)).isEqualTo(1);

        assertThat(err()).contains(url + " has no administration interface (admin.user is not set)");
    }
    /** {@code api/groups} as jwd writes it, with a field a later jwd might add. */
    private static final String GROUPS = """
            [{"name":"PORTAL","kind":"logon","type":"j2ee","secure":false,"logon_group_type":"B","ext_rfc":true,\
            "http_balancing":"strategy","url_prefixes":["/irj/portal"],"strategy":"weighted_round_robin",\
            "measure":"quality","favorite":"b","next_request":"a",\
            "members":[{"id":"a","capacity":1,"value":1000,"in_flight":0,"served":3,"state":"up",\
            "url":"http://10.0.0.1:50000"},{"id":"b","capacity":2,"value":2000.5,"in_flight":1,"served":4,\
            "state":"up","url":"http://10.0.0.2:50000","zone":"later"}]},\
            {"name":"SPACE","kind":"logon","type":"abap","secure":true,"logon_group_type":"R","ext_rfc":false,\
            "http_balancing":"quality","url_prefixes":[],"strategy":"R","measure":"quality","favorite":null,\
            "next_request":null,"members":[]},\
            {"name":"!J2EES","kind":"internal","type":"j2ee","secure":true,"logon_group_type":null,\
            "ext_rfc":null,"http_balancing":null,"url_prefixes":[],"strategy":null,"measure":null,"favorite":null,\
            "next_request":null,"members":[]}]""";

    @Test
    void printsEachGroupAsItsMessageServerWouldWithTheExternalRfcFlagOfLogonGroups() throws Exception {
        List<GroupView> groups = AdminJson.readAnswer(GROUPS, new TypeReference<List<GroupView>>() { });
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Lgtst.print(groups, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualToNormalizingNewlines("""
                group PORTAL (logon group type B, j2ee servers, HTTP by weighted_round_robin)
                -----------------------------------------------------------------------------
                [a] [http://10.0.0.1:50000] [up] [capacity 1] [quality 1000]
                [b] [http://10.0.0.2:50000] [up] [capacity 2] [quality 2000.5]
                favorite: [b] [http://10.0.0.2:50000] [TRUE]

                group SPACE (logon group type R, abap servers, https, HTTP by R)
                ----------------------------------------------------------------
                no servers
                favorite: none (no server takes new requests) [FALSE]

                group !J2EES (internal group, j2ee servers, https)
                --------------------------------------------------
                no servers
                favorite: none (no server takes new requests)
                """);
    }
}
