package org.jwd.admin;

import org.jwd.config.Version;
import org.jwd.config.PasswordHash;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.ConfigWatch;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.Reloader;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact JSON of every admin API answer, as the admin page, {@code lgtst} and operators' scripts read it: field
 * names, their order, nesting, numbers against strings, and {@code null}s. Instants the dispatcher takes from the
 * wall clock (the reload's) and the registry's countdown are replaced by placeholders; the rest is exact.
 */
class AdminApiJsonTest {
    private static final String CONFIG = """
            server.a.url=http://127.0.0.1:9001
            server.a.type=j2ee
            server.a.capacity=2
            server.a.logon_groups=PORTAL
            server.b.url=http://127.0.0.1:9002
            server.b.type=abap
            server.b.name=host_SID_00
            icf.url_prefixes=/sap/
            logon_group.PORTAL.url_prefixes=/irj/portal
            SessionTableTimeout=60s
            wdisp/permission_table=permissions.txt
            admin.user=ops
            admin.password_hash=%s
            jwd.config_watch=0
            """;
    private static final String HASH = PasswordHash.create("secret".toCharArray(), 1000).toString();

    @TempDir
    Path dir;
    private Path file;
    private Bootstrap boot;
    private Dispatcher dispatcher;
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private RequestHistory history;
    private AdminApi api;
    private AdminActions actions;

    @BeforeEach
    void start() throws Exception {
        file = dir.resolve("jwd.properties");
        Files.writeString(dir.resolve("permissions.txt"), "P /irj/*\nD /nwa/*\n");
        Files.writeString(file, CONFIG.formatted(HASH));
        boot = Bootstrap.build(ConfigReader.load(file), null);
        dispatcher = boot.dispatcher();
        history = new RequestHistory(10, 5000, clock::get);
        api = new AdminApi(AdminContext.of(boot), history, clock::get);
        actions = new AdminActions(AdminContext.of(boot), api);
        history.sample(dispatcher.state().topology().servers().values());
        clock.addAndGet(5000);
        dispatcher.state().router().route(RoutingRequest.of("GET", "/irj/portal/x", null, List.of(), false))
                .finish(false);
        clock.addAndGet(2500);
    }

    @AfterEach
    void close() {
        boot.close();
    }

    /** The body as the servlet writes it, with the wall clock's instants and the registry's countdown masked. */
    private String json(Object body) {
        return AdminJson.write(body).replace(dir.toString(), "<dir>")
                .replaceAll("\"20\\d\\d-[0-9-]+T[0-9:.]+Z\"", "\"<now>\"")
                .replaceAll("\"expires_in_ms\":\\d+", "\"expires_in_ms\":<ms>");
    }

    @Test
    void status() {
        assertThat(json(api.status()).replace(Version.CURRENT.version(), "<version>")
                .replace(Version.CURRENT.revision(), "<revision>")).isEqualTo("""
                {"version":"<version>","revision":"<revision>","time":"<now>","started":"<now>","uptime_s":7,\
                "servers":{"total":2,"up":2,"drained":0,"down":0,\
                "disabled":0,"registered":0},"requests":{"served":1,"in_flight":0,"errors":0,"stateful":0,\
                "stateless":1},"session_table":{"enabled":true,"timeout":"1m","esid_support":true,\
                "jsessionid_tab_support":true,"context_timeout":"1h","temporary_table":true,\
                "jsessionid_timeout":"1h","full":false,"max_entries":1000000,"entries":0,"hits":0,"misses":0,\
                "bindings":0,"rebindings":0,"expirations":0,"rejected":0,"cluster":"NONE","cluster_status":null,"persistence":null},\
                "health":"health checks every 5s (timeout 2s, rise 2, fall 3, status 200-399)",\
                "strategy":"weighted_round_robin","ready":{"ready":false,"reason":"starting"}}""");
    }

    @Test
    void servers() {
        assertThat(json(api.servers())).isEqualTo("""
                [{"id":"a","type":"j2ee","url":"http://127.0.0.1:9001","https_url":null,"capacity":2,\
                "logon_groups":["PORTAL"],"groups":["!J2EE","!ALL","PORTAL","SPACE"],"route":null,\
                "route_source":null,"source":"config","expires_in_ms":null,"state":"up","admin_state":"enabled",\
                "healthy":true,"load":{"group":"!J2EE","strategy":"weighted_round_robin","measure":"load factor",\
                "value":0},"in_flight":0,"served":1,"stateful":0,"stateless":1,"errors":0,"health_path":"/",\
                "last_check":"not checked yet","https":null,"connections":{"max_connections":null,"max_queue":null,\
                "active":0,"queued":0,"rejected":0,"queue_timeouts":0},"response_ms":null,"state_since":"<now>",\
                "operator":{"by":null,"at":"<now>","configured":"active","kept":"until the restart only"},\
                "answers":{"server_4xx":0,"server_5xx":0,"jwd_502":0,"jwd_503":0,"jwd_504":0,"bytes_in":0,"bytes_out":0},\
                "check":{"url":"http://127.0.0.1:9001/","status":"200-399","interval":"5s","timeout":"2s","rise":2,"fall":3,\
                "failed_checks":0,"last_failure":null,"last_failure_at":null}},{"id":"b","type":"abap",\
                "url":"http://127.0.0.1:9002","https_url":null,"capacity":1,"logon_groups":[],"groups":["!DIAG",\
                "!ALL","SPACE"],"route":null,"route_source":null,"source":"config","expires_in_ms":null,\
                "state":"up","admin_state":"enabled","healthy":true,"load":{"group":"!DIAG",\
                "strategy":"weighted_round_robin","measure":"load factor","value":0},"in_flight":0,"served":0,\
                "stateful":0,"stateless":0,"errors":0,"health_path":"/sap/public/icman/ping",\
                "last_check":"not checked yet","https":null,"connections":{"max_connections":null,"max_queue":null,\
                "active":0,"queued":0,"rejected":0,"queue_timeouts":0},"response_ms":null,"state_since":"<now>",\
                "operator":{"by":null,"at":"<now>","configured":"active","kept":"until the restart only"},\
                "answers":{"server_4xx":0,"server_5xx":0,"jwd_502":0,"jwd_503":0,"jwd_504":0,"bytes_in":0,"bytes_out":0},\
                "check":{"url":"http://127.0.0.1:9002/sap/public/icman/ping","status":"200-399","interval":"5s","timeout":"2s","rise":2,"fall":3,\
                "failed_checks":0,"last_failure":null,"last_failure_at":null}}]""");
        assertThat(json(api.server("b"))).isEqualTo("""
                {"id":"b","type":"abap","url":"http://127.0.0.1:9002","https_url":null,"capacity":1,\
                "logon_groups":[],"groups":["!DIAG","!ALL","SPACE"],"route":null,"route_source":null,\
                "source":"config","expires_in_ms":null,"state":"up","admin_state":"enabled","healthy":true,\
                "load":{"group":"!DIAG","strategy":"weighted_round_robin","measure":"load factor","value":0},\
                "in_flight":0,"served":0,"stateful":0,"stateless":0,"errors":0,\
                "health_path":"/sap/public/icman/ping","last_check":"not checked yet","https":null,\
                "connections":{"max_connections":null,"max_queue":null,"active":0,"queued":0,"rejected":0,\
                "queue_timeouts":0},"response_ms":null,"state_since":"<now>",\
                "operator":{"by":null,"at":"<now>","configured":"active","kept":"until the restart only"},\
                "answers":{"server_4xx":0,"server_5xx":0,"jwd_502":0,"jwd_503":0,"jwd_504":0,"bytes_in":0,"bytes_out":0},\
                "check":{"url":"http://127.0.0.1:9002/sap/public/icman/ping","status":"200-399","interval":"5s","timeout":"2s","rise":2,"fall":3,\
                "failed_checks":0,"last_failure":null,"last_failure_at":null}}""");
    }

    @Test
    void groups() {
        assertThat(json(api.groups(null))).isEqualTo("""
                [{"name":"!DIAG","kind":"internal","type":"abap","secure":false,"logon_group_type":null,\
                "ext_rfc":null,"http_balancing":null,"url_prefixes":[],"strategy":"weighted_round_robin",\
                "measure":"load factor","favorite":"b","next_request":"b","members":[{"id":"b","capacity":1,\
                "value":0,"in_flight":0,"served":0,"state":"up","url":"http://127.0.0.1:9002"}]},{"name":"!J2EE",\
                "kind":"internal","type":"j2ee","secure":false,"logon_group_type":null,"ext_rfc":null,\
                "http_balancing":null,"url_prefixes":[],"strategy":"weighted_round_robin","measure":"load factor",\
                "favorite":"a","next_request":"a","members":[{"id":"a","capacity":2,"value":0,"in_flight":0,\
                "served":1,"state":"up","url":"http://127.0.0.1:9001"}]},{"name":"!ALL","kind":"internal",\
                "type":"any","secure":false,"logon_group_type":null,"ext_rfc":null,"http_balancing":null,\
                "url_prefixes":[],"strategy":"weighted_round_robin","measure":"load factor","favorite":"a",\
                "next_request":"a","members":[{"id":"a","capacity":2,"value":0,"in_flight":0,"served":1,\
                "state":"up","url":"http://127.0.0.1:9001"},{"id":"b","capacity":1,"value":0.5,"in_flight":0,\
                "served":0,"state":"up","url":"http://127.0.0.1:9002"}]},{"name":"PORTAL","kind":"logon",\
                "type":"j2ee","secure":false,"logon_group_type":"B","ext_rfc":true,"http_balancing":"strategy",\
                "url_prefixes":["/irj/portal"],"strategy":"weighted_round_robin","measure":"quality",\
                "favorite":"a","next_request":"a","members":[{"id":"a","capacity":2,"value":2000,"in_flight":0,\
                "served":1,"state":"up","url":"http://127.0.0.1:9001"}]},{"name":"SPACE","kind":"logon",\
                "type":"j2ee","secure":false,"logon_group_type":"B","ext_rfc":true,"http_balancing":"strategy",\
                "url_prefixes":[],"strategy":"weighted_round_robin","measure":"quality","favorite":"a",\
                "next_request":"a","members":[{"id":"a","capacity":2,"value":2000,"in_flight":0,"served":1,\
                "state":"up","url":"http://127.0.0.1:9001"}]},{"name":"SPACE","kind":"logon","type":"abap",\
                "secure":false,"logon_group_type":"B","ext_rfc":true,"http_balancing":"strategy","url_prefixes":[],\
                "strategy":"weighted_round_robin","measure":"quality","favorite":"b","next_request":"b",\
                "members":[{"id":"b","capacity":1,"value":1000,"in_flight":0,"served":0,"state":"up",\
                "url":"http://127.0.0.1:9002"}]}]""");
        assertThat(json(api.groups("PORTAL"))).isEqualTo("""
                [{"name":"PORTAL","kind":"logon","type":"j2ee","secure":false,"logon_group_type":"B","ext_rfc":true,\
                "http_balancing":"strategy","url_prefixes":["/irj/portal"],"strategy":"weighted_round_robin",\
                "measure":"quality","favorite":"a","next_request":"a","members":[{"id":"a","capacity":2,\
                "value":2000,"in_flight":0,"served":1,"state":"up","url":"http://127.0.0.1:9001"}]}]""");
    }

    @Test
    void systemsWithoutAnyEntry() {
        assertThat(json(api.systems())).isEqualTo("""
                {"systems":[],"conflict_resolution":null,"default_system":null,"overlaps":[]}""");
        assertThat(api.groups(null, "ERP").status()).isEqualTo(404);
        assertThat(json(api.groups(null, "ERP").body())).isEqualTo("""
                {"error":"no system ERP: this jwd has no systems (no wdisp/system_\\u003cxx> is configured)"}""");
    }

    @Test
    void sessionTable() {
        assertThat(json(api.sessionTable())).isEqualTo("""
                {"enabled":true,"timeout":"1m","esid_support":true,"jsessionid_tab_support":true,\
                "context_timeout":"1h","temporary_table":true,"jsessionid_timeout":"1h","full":false,\
                "max_entries":1000000,"entries":0,"hits":0,"misses":0,"bindings":0,"rebindings":0,"expirations":0,\
                "rejected":0,"cluster":"NONE","cluster_status":null,"persistence":null}""");
    }

    @Test
    void configWithoutAndWithAFileWatch() throws Exception {
        assertThat(json(api.config())).isEqualTo("""
                {"properties":{"SessionTableTimeout":"60s","admin.password_hash":"(hidden)","admin.user":"ops",\
                "icf.url_prefixes":"/sap/","jwd.config_watch":"0","logon_group.PORTAL.url_prefixes":"/irj/portal",\
                "server.a.capacity":"2","server.a.logon_groups":"PORTAL","server.a.type":"j2ee",\
                "server.a.url":"http://127.0.0.1:9001","server.b.name":"host_SID_00","server.b.type":"abap",\
                "server.b.url":"http://127.0.0.1:9002","wdisp/permission_table":"permissions.txt"},\
                "effective":{"wdisp/load_balancing_strategy":"weighted_round_robin","SessionTableTimeout":"1m",\
                "wdisp/HTTP/context_timeout":"1h","wdisp/HTTP/esid_support":true,\
                "wdisp/HTTP/jsessionid_tab_support":true,"is/HTTP/default_root_hdl":"j2ee",\
                "icf.url_prefixes":["/sap/"],"rdisp/autoabaptime":"5m","rdisp/registry_expiry":"330s",\
                "health":"health checks every 5s (timeout 2s, rise 2, fall 3, status 200-399)",\
                "jwd.connect_timeout":"5s",\
                "jwd.request_timeout":"1m","logon_groups":["logon group PORTAL (type B, prefixes [/irj/portal])",\
                "logon group SPACE (type B, prefixes [], every server)"]},"reload":null}""");

        // the same dispatcher, now as one started from the file: the reload and its status appear
        AdminContext started = AdminContext.of(boot);
        Reloader reloader = new Reloader(file, dispatcher, System::currentTimeMillis);
        AdminContext fromFile = new AdminContext(dispatcher, started.config(), reloader,
                new ConfigWatch(reloader, dispatcher::config, started.scheduler()), started.scheduler(),
                started.readiness(), started.clientTls());
        api = new AdminApi(fromFile, history, clock::get);
        actions = new AdminActions(fromFile, api);
        String otherHash = PasswordHash.create("other".toCharArray(), 1000).toString();
        Files.writeString(file, CONFIG.replace("60s", "90s").formatted(otherHash));
        AdminApi.Answer reload = actions.reload();

        assertThat(reload.status()).isEqualTo(200);
        assertThat(json(reload.body())).isEqualTo("""
                {"file":"<dir>/jwd.properties","watch":"off","loaded_at":"<now>","outcome":"applied","at":"<now>",\
                "trigger":"api","errors":[],"pending_restart":[{"key":"admin.password_hash","running":"(hidden)",\
                "file":"(hidden)"}]}""");
        assertThat(json(api.config())).isEqualTo("""
                {"properties":{"SessionTableTimeout":"90s","admin.password_hash":"(hidden)","admin.user":"ops",\
                "icf.url_prefixes":"/sap/","jwd.config_watch":"0","logon_group.PORTAL.url_prefixes":"/irj/portal",\
                "server.a.capacity":"2","server.a.logon_groups":"PORTAL","server.a.type":"j2ee",\
                "server.a.url":"http://127.0.0.1:9001","server.b.name":"host_SID_00","server.b.type":"abap",\
                "server.b.url":"http://127.0.0.1:9002","wdisp/permission_table":"permissions.txt"},\
                "effective":{"wdisp/load_balancing_strategy":"weighted_round_robin","SessionTableTimeout":"90s",\
                "wdisp/HTTP/context_timeout":"1h","wdisp/HTTP/esid_support":true,\
                "wdisp/HTTP/jsessionid_tab_support":true,"is/HTTP/default_root_hdl":"j2ee",\
                "icf.url_prefixes":["/sap/"],"rdisp/autoabaptime":"5m","rdisp/registry_expiry":"330s",\
                "health":"health checks every 5s (timeout 2s, rise 2, fall 3, status 200-399)",\
                "jwd.connect_timeout":"5s",\
                "jwd.request_timeout":"1m","logon_groups":["logon group PORTAL (type B, prefixes [/irj/portal])",\
                "logon group SPACE (type B, prefixes [], every server)"]},"reload":{"file":"<dir>/jwd.properties",\
                "watch":"off","loaded_at":"<now>","outcome":"applied","at":"<now>","trigger":"api","errors":[],\
                "pending_restart":[{"key":"admin.password_hash","running":"(hidden)","file":"(hidden)"}]}}""");
    }

    @Test
    void history() {
        assertThat(json(api.history())).isEqualTo("""
                {"interval_ms":5000,"samples":[{"t":1700000000000,"served":{"a":0,"b":0}},{"t":1700000007500,\
                "served":{"a":1,"b":0}}]}""");
    }

    @Test
    void explain() {
        AdminApi.Answer portal = api.explain("/irj/portal/x?q=1", List.of("JSESSIONID=s1", "saplb_*=(J2EE1)a"));
        AdminApi.Answer denied = api.explain("/nwa/x", List.of());
        AdminApi.Answer bad = api.explain("irj", List.of());

        assertThat(portal.status()).isEqualTo(200);
        assertThat(json(portal.body())).isEqualTo("""
                {"url":"/irj/portal/x?q=1","path":"/irj/portal/x","type":"j2ee","rule":"default",\
                "matched_prefix":null,"group":"PORTAL",\
                "classification":"path /irj/portal/x matches no ICF prefix -> j2ee;\
                 logon group prefix /irj/portal/ -> PORTAL",\
                "members":[{"id":"a","state":"up","takes_new_requests":true,"serves_its_sessions":true}],\
                "session":{"jsessionid":"s1","saplb":["saplb_*=(J2EE1)a"],"sap_contextid":null,"sap_ext_sid":null},\
                "server":"a","reason":"saplb cookie","bound":true,"target":"http://127.0.0.1:9001/irj/portal/x?q=1",\
                "status":200,"error":null,"permission":{"rule":{"file":"<dir>/permissions.txt","line":1,\
                "text":"P /irj/*"},"verdict":"permitted"}}""");
        assertThat(json(denied.body())).isEqualTo("""
                {"url":"/nwa/x","path":"/nwa/x","type":"j2ee","rule":"default","matched_prefix":null,\
                "group":"!J2EE",\
                "classification":"path /nwa/x matches no ICF prefix -> j2ee; no logon group -> !J2EE",\
                "members":[{"id":"a","state":"up","takes_new_requests":true,"serves_its_sessions":true}],\
                "session":{"jsessionid":null,"saplb":[],"sap_contextid":null,"sap_ext_sid":null},"server":null,\
                "reason":"permission table line 2","bound":false,"target":null,"status":403,\
                "error":"jwd: this URL is not permitted (permission table, line 2)",\
                "permission":{"rule":{"file":"<dir>/permissions.txt","line":2,"text":"D /nwa/*"},\
                "verdict":"denied"}}""");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(json(bad.body())).isEqualTo("""
                {"error":"url = 'irj': expected a path starting with '/', or an http:// or https:// URL"}""");
    }

    @Test
    void actionsRegistrationsAndTheirErrors() {
        assertThat(json(actions.act("a", "drain").body())).contains("\"state\":\"drained\"");
        assertThat(json(actions.act("a", "explode").body())).isEqualTo("""
                {"error":"no action explode: drain, disable or enable"}""");

        AdminApi.Answer registered = actions.register("n1",
                "{\"url\":\"http://127.0.0.1:9003\",\"type\":\"j2ee\",\"logon_groups\":[\"PORTAL\"]}");
        assertThat(registered.status()).isEqualTo(201);
        assertThat(json(registered.body())).isEqualTo("""
                {"id":"n1","type":"j2ee","url":"http://127.0.0.1:9003","https_url":null,"capacity":1,\
                "logon_groups":["PORTAL"],"groups":["!J2EE","!ALL","PORTAL","SPACE"],"route":null,\
                "route_source":null,"source":"registry","expires_in_ms":<ms>,"state":"up","admin_state":"enabled",\
                "healthy":true,"load":{"group":"!J2EE","strategy":"weighted_round_robin","measure":"load factor",\
                "value":0.5},"in_flight":0,"served":0,"stateful":0,"stateless":0,"errors":0,"health_path":"/",\
                "last_check":"not checked yet","https":null,"connections":{"max_connections":null,"max_queue":null,\
                "active":0,"queued":0,"rejected":0,"queue_timeouts":0},"response_ms":null,"state_since":"<now>",\
                "operator":{"by":null,"at":"<now>","configured":"active","kept":"until the restart only"},\
                "answers":{"server_4xx":0,"server_5xx":0,"jwd_502":0,"jwd_503":0,"jwd_504":0,"bytes_in":0,"bytes_out":0},\
                "check":{"url":"http://127.0.0.1:9003/","status":"200-399","interval":"5s","timeout":"2s","rise":2,"fall":3,\
                "failed_checks":0,"last_failure":null,"last_failure_at":null},"outcome":"registered"}""");

        AdminApi.Answer invalid = actions.register("n2", "{\"url\":\"ftp://h\",\"type\":\"j2ee\",\"load\":{\"x\":[1]}}");
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(json(invalid.body())).isEqualTo("""
                {"error":"invalid registration of n2",\
                "problems":["load = '{\\"x\\":[1]}': expected a known field: one of capacity, health_fall,\
                 health_interval, health_path, health_rise, health_status, health_timeout, https_url, instance_id,\
                 lb_id, logon_groups, name, route, state, type, url",\
                "url = 'ftp://h': expected http://host:port"]}""");

        assertThat(actions.register("a", "{}").status()).isEqualTo(409);
        assertThat(json(actions.deregister("n1").body())).isEqualTo("""
                {"removed":"n1"}""");
        AdminApi.Answer gone = actions.deregister("n1");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(json(gone.body())).isEqualTo("""
                {"error":"server n1 is not registered"}""");
    }

    @Test
    void refusesRegistrationsThatAreNotOneSmallObjectWithEachKeyOnceNamingWhy() {
        AdminApi.Answer twice = actions.register("n1",
                "{\"url\":\"http://127.0.0.1:9003\",\"type\":\"j2ee\",\"url\":\"http://127.0.0.1:9004\"}");
        AdminApi.Answer list = actions.register("n1", "[{\"url\":\"http://127.0.0.1:9003\",\"type\":\"j2ee\"}]");
        AdminApi.Answer deep = actions.register("n1", "{\"name\":" + "[".repeat(40) + "]".repeat(40) + "}");
        AdminApi.Answer empty = actions.register("n1", "");

        assertThat(List.of(twice.status(), list.status(), deep.status(), empty.status())).containsOnly(400);
        assertThat(json(twice.body())).isEqualTo("""
                {"error":"invalid JSON at line 1, column 51: Duplicate field 'url'"}""");
        assertThat(json(list.body())).isEqualTo("""
                {"error":"invalid registration of n1","problems":["body = '[{\\"url\\":\\"http://127.0.0.1:9003\\",\
                \\"type\\":\\"j2ee\\"}]': expected a JSON object"]}""");
        assertThat(json(deep.body())).isEqualTo("""
                {"error":"invalid JSON: Document nesting depth (33) exceeds the maximum allowed (32,\
                 from `StreamReadConstraints.getMaxNestingDepth()`)"}""");
        assertThat(json(empty.body())).isEqualTo("""
                {"error":"invalid JSON: a value was expected, the body is empty"}""");
        assertThat(dispatcher.registry().servers()).isEmpty();
    }

    @Test
    void aSessionLookupFindsTheServerAndTheBindingOfAPastedValueInEachFormItReads() {
        RoutingDecision bound = dispatcher.state().router().route(RoutingRequest.of("GET", "/irj/x", null,
                List.of("JSESSIONID=s9"), false));
        bound.finish(false);
        dispatcher.state().router().route(RoutingRequest.of("GET", "/sap/bc/x;sap-ext-sid=E1", null, List.of(),
                false)).finish(false);

        String jsessionid = json(api.lookup(" s9\n").body());
        String named = json(api.lookup("JSESSIONID=s9").body());
        String saplb = json(api.lookup("saplb_PORTAL=(J2EE1)a").body());
        String contextid = json(api.lookup("sap-contextid=SID%3aANON%3ahost_SID_00%3a42-NEW").body());

        assertThat(jsessionid.replaceAll("\"idle_left_ms\":\\d+", "\"idle_left_ms\":<ms>")).isEqualTo("""
                {"read_as":["JSESSIONID","sap-ext-sid"],"findings":[{"system":null,"server":"a",\
                "state":"up","binding":"session table","idle_left_ms":<ms>}]}""");
        long left = Long.parseLong(jsessionid.replaceAll(".*\"idle_left_ms\":(\\d+).*", "$1"));
        assertThat(left).as("SessionTableTimeout=60s, just used").isBetween(50_000L, 60_000L);
        assertThat(named).startsWith("{\"read_as\":[\"JSESSIONID\"],\"findings\":[{\"system\":null,\"server\":\"a\"");
        assertThat(saplb).isEqualTo("""
                {"read_as":["saplb_PORTAL"],"findings":[{"system":null,"server":"a","state":"up",\
                "binding":"saplb cookie","idle_left_ms":null}]}""");
        assertThat(contextid).isEqualTo("""
                {"read_as":["sap-contextid"],"findings":[{"system":null,"server":"b","state":"up",\
                "binding":"sap-contextid","idle_left_ms":null}]}""");
        assertThat(json(api.lookup("E1").body())).contains("\"server\":\"b\"", "session table (sap-ext-sid)");
    }

    @Test
    void aSessionLookupSaysWhenNoServerHoldsTheValueAndWhenABindingsServerCannotServeIt() {
        dispatcher.state().router().route(RoutingRequest.of("GET", "/irj/x", null, List.of("JSESSIONID=s7"),
                false)).finish(false);
        dispatcher.state().topology().server("a").setState(org.jwd.topology.Server.State.DOWN);

        assertThat(json(api.lookup("nobody").body())).isEqualTo("""
                {"read_as":["JSESSIONID","sap-ext-sid"],"findings":[],\
                "none":"no server holds it: no session table entry, and no server of its name, route or saplb value"}""");
        assertThat(json(api.lookup("s7").body())).contains("\"server\":\"a\",\"state\":\"down\"",
                "\"note\":\"bound to a, which does not serve its sessions now (down): its next request is rebound\"");
        assertThat(api.lookup("  ").status()).isEqualTo(400);
    }

    @Test
    void urlMapping() {
        assertThat(json(api.urlMapping())).isEqualTo("""
                {"systems":[{"icf_prefixes":[{"prefix":"/sap/","case_sensitive":false,"source":"icf.url_prefixes"}],\
                "url":null,"refresh":null,"loaded_at":null,"last_error":null,"root_handler":"j2ee",\
                "logon_groups":[{"name":"PORTAL","type":"B","url_prefixes":["/irj/portal"]},\
                {"name":"SPACE","type":"B","url_prefixes":[]}]}]}""");
    }
}
