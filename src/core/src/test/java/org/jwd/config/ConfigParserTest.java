package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigParserTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    private static DispatcherConfig parse(String text) throws ConfigException {
        return ConfigReader.parse(text, "test.properties");
    }

    private static ConfigException problems(String text) {
        try {
            parse(text);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected a configuration error for:\n" + text);
    }

    @Test
    void readsAServerWithDefaults() throws Exception {
        DispatcherConfig config = parse(A);

        ServerConfig a = config.servers().get(0);
        assertThat(a.id()).isEqualTo("a");
        assertThat(a.url()).isEqualTo(URI.create("http://127.0.0.1:8081"));
        assertThat(a.type()).isEqualTo(ServerType.J2EE);
        assertThat(a.capacity()).isEqualTo(1);
        assertThat(a.lbId()).isEqualTo("a");
        assertThat(a.name()).isEqualTo("a");
        assertThat(a.httpsUrl()).isNull();
        assertThat(config.loadBalancingStrategy()).isEqualTo("weighted_round_robin");
        assertThat(config.urlMapping().defaultRootHandler()).isEqualTo(ServerType.J2EE);
        assertThat(config.sessions().sessionTableTimeout()).isEqualTo(Duration.ZERO);
        // SAP's defaults: the session ID table on (ESIDs, learned JSESSIONIDs, 3600 s), the temporary table off
        assertThat(config.sessionTableEnabled()).isTrue();
        assertThat(config.sessions().temporaryTableEnabled()).isFalse();
        assertThat(config.sessions().esidSupport()).isTrue();
        assertThat(config.sessions().jsessionidTabSupport()).isTrue();
        assertThat(config.sessions().contextTimeout()).isEqualTo(Duration.ofSeconds(3600));
        assertThat(config.sessions().jsessionidTimeout()).isEqualTo(Duration.ofSeconds(3600));
        assertThat(config.sessions().maxSessionTableEntries()).isEqualTo(1_000_000);
        assertThat(config.forwarding().requestTimeout()).isEqualTo(Duration.ofSeconds(60));
        // Jetty ProxyServlet's own default
        assertThat(config.forwarding().connectionsPerServer()).isEqualTo(256);
        assertThat(config.urlMapping().autoRefresh()).isEqualTo(Duration.ofSeconds(25));
        assertThat(config.autoAbapTime()).isEqualTo(Duration.ofSeconds(300));
    }

    @Test
    void readsEveryServerKey() throws Exception {
        DispatcherConfig config = parse("""
                server.n1.url=http://host1:50000/
                server.n1.https_url=https://host1:50001
                server.n1.type=ABAP
                server.n1.capacity=3
                server.n1.logon_groups=PUBLIC, SPACE
                server.n1.lb_id=(J2EE6906720)6906750
                server.n1.name=host1_JWD_00
                server.n1.route=node1
                logon_group.PUBLIC.url_prefixes=/sap/public
                logon_group.SPACE.url_prefixes=/space
                logon_group.SPACE.type=w
                logon_group.SPACE.ext_rfc=false
                """);

        ServerConfig n1 = config.servers().get(0);
        assertThat(n1.url()).hasToString("http://host1:50000");
        assertThat(n1.httpsUrl()).hasToString("https://host1:50001");
        assertThat(n1.type()).isEqualTo(ServerType.ABAP);
        assertThat(n1.capacity()).isEqualTo(3);
        assertThat(n1.logonGroups()).containsExactlyInAnyOrder("PUBLIC", "SPACE");
        assertThat(n1.lbId()).isEqualTo("(J2EE6906720)6906750");
        assertThat(n1.name()).isEqualTo("host1_JWD_00");
        assertThat(n1.route()).isEqualTo("node1");
        LogonGroupConfig space = config.logonGroups().stream().filter(g -> g.name().equals("SPACE")).findFirst()
                .orElseThrow();
        assertThat(space.type()).isEqualTo('W');
        assertThat(space.extRfc()).isFalse();
        assertThat(space.refresh()).isEqualTo(Duration.ofSeconds(120));
        assertThat(space.refreshDispatches()).isEqualTo(200);
    }

    @Test
    void aLogonGroupIsBalancedByTheStrategyUnlessItOptsInToItsQualities() throws Exception {
        DispatcherConfig config = parse(A + """
                logon_group.PORTAL.url_prefixes=/irj
                logon_group.ERP.url_prefixes=/erp
                logon_group.ERP.type=R
                logon_group.ERP.http_balancing=Quality
                """);

        assertThat(group(config, "PORTAL").httpBalancing()).isEqualTo(LogonGroupConfig.HttpBalancing.STRATEGY);
        assertThat(group(config, "ERP").httpBalancing()).isEqualTo(LogonGroupConfig.HttpBalancing.QUALITY);
    }

    @Test
    void spaceIsAnImplicitLogonGroupOfEveryServerWithoutPrefixes() throws Exception {
        DispatcherConfig config = parse(A + "logon_group.PORTAL.url_prefixes=/irj\nlogon_group.ZZZ.url_prefixes=/z\n");

        assertThat(config.logonGroups()).extracting(LogonGroupConfig::name).containsExactly("PORTAL", "SPACE", "ZZZ");
        LogonGroupConfig space = group(config, "SPACE");
        assertThat(space).isEqualTo(LogonGroupConfig.space());
        assertThat(space.urlPrefixes()).isEmpty();
        assertThat(space.everyServer()).isTrue();
        assertThat(space.includes(config.servers().get(0))).isTrue();
        assertThat(space.type()).isEqualTo('B');
        assertThat(space.httpBalancing()).isEqualTo(LogonGroupConfig.HttpBalancing.STRATEGY);
        assertThat(parse("").logonGroups()).containsExactly(LogonGroupConfig.space());
    }

    @Test
    void aConfiguredSpaceReplacesTheImplicitOneAndHasOnlyTheServersThatNameIt() throws Exception {
        DispatcherConfig config = parse(A + """
                server.b.url=http://127.0.0.1:8082
                server.b.type=j2ee
                server.b.logon_groups=SPACE
                logon_group.SPACE.type=R
                """);

        assertThat(config.logonGroups()).extracting(LogonGroupConfig::name).containsExactly("SPACE");
        LogonGroupConfig space = group(config, "SPACE");
        assertThat(space.type()).isEqualTo('R');
        assertThat(space.everyServer()).isFalse();
        assertThat(config.servers()).filteredOn(space::includes).extracting(ServerConfig::id).containsExactly("b");
    }

    @Test
    void aServerMayNameTheImplicitSpace() throws Exception {
        DispatcherConfig config = parse(A + "server.a.logon_groups=SPACE\n");

        assertThat(group(config, "SPACE").includes(config.servers().get(0))).isTrue();
    }

    private static LogonGroupConfig group(DispatcherConfig config, String name) {
        return config.logonGroups().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void anEmptyFileIsADispatcherWithoutServers() throws Exception {
        assertThat(parse("# nothing yet\n").servers()).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "0        | PT0S",
            "1500     | PT1.5S",
            "500ms    | PT0.5S",
            "30s      | PT30S",
            "10m      | PT10M",
            "1h       | PT1H",
            "60S      | PT1M"})
    void readsSessionTableTimeoutInEveryForm(String value, Duration expected) throws Exception {
        assertThat(parse(A + "SessionTableTimeout=" + value).sessions().sessionTableTimeout()).isEqualTo(expected);
    }

    @Test
    void readsABareNumberAsSapsUnitInSapsKeysAndAUnitEverywhere() throws Exception {
        DispatcherConfig config = parse(A + "SessionTableTimeout=600000\nwdisp/HTTP/context_timeout=1800\n"
                + "jwd.request_timeout=90s\nhealth.timeout=1500ms\n");

        // the Java dispatcher's SessionTableTimeout in milliseconds, the Web Dispatcher's times in seconds
        assertThat(config.sessions().sessionTableTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.sessions().contextTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(config.forwarding().requestTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.health().timeout()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void readsSapSecondParametersAsSeconds() throws Exception {
        DispatcherConfig config = parse(A + "wdisp/auto_refresh=10\nrdisp/autoabaptime=2m\n");

        assertThat(config.urlMapping().autoRefresh()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.autoAbapTime()).isEqualTo(Duration.ofMinutes(2));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unknown type        | server.a.type=jboss                | server.a.type = 'jboss': expected j2ee or abap",
            "bad URL scheme      | server.a.url=ftp://h:1             | server.a.url = 'ftp://h:1': expected http://host:port",
            "URL without host    | server.a.url=http://:80            | server.a.url = 'http://:80': expected http://host:port",
            "URL with a path     | server.a.url=http://h:1/app        | server.a.url = 'http://h:1/app': expected http://host:port",
            "not a URL           | server.a.url=http://h:1 x          | server.a.url = 'http://h:1 x': expected http://host:port",
            "https_url not https | server.a.https_url=http://h:2       | server.a.https_url = 'http://h:2': expected https://host:port",
            "zero capacity       | server.a.capacity=0                | server.a.capacity = '0': expected a positive integer",
            "negative capacity   | server.a.capacity=-1               | server.a.capacity = '-1': expected a positive integer",
            "capacity not a number | server.a.capacity=lots           | server.a.capacity = 'lots': expected a positive integer",
            "unknown server key  | server.a.weight=2                  | server.a.weight = '2': expected a known server key",
            "unknown key         | SessionTableTimeOut=1s             | SessionTableTimeOut = '1s': expected a known key",
            "bad timeout         | SessionTableTimeout=soon           | SessionTableTimeout = 'soon': expected milliseconds, or a number with a unit",
            "bad timeout unit    | SessionTableTimeout=5d             | SessionTableTimeout = '5d': expected milliseconds",
            "negative timeout    | jwd.request_timeout=-5s            | jwd.request_timeout = '-5s': expected a positive duration",
            "zero request timeout | jwd.request_timeout=0             | jwd.request_timeout = '0': expected a positive duration",
            "bare request timeout | jwd.request_timeout=60            | jwd.request_timeout = '60': expected a number with a unit: add a unit (500ms, 30s, 10m, 1h)",
            "bare health timeout | health.timeout=2                   | health.timeout = '2': expected a number with a unit: add a unit",
            "bare health interval | health.interval=5000              | health.interval = '5000': expected a number with a unit: add a unit",
            "bare connect timeout | jwd.connect_timeout=5             | jwd.connect_timeout = '5': expected a number with a unit: add a unit",
            "bad connect timeout | jwd.connect_timeout=fast           | jwd.connect_timeout = 'fast'",
            "bad idle timeout    | jwd.idle_timeout=1x                | jwd.idle_timeout = '1x'",
            "too few client threads | jwd.client_threads=7          | jwd.client_threads = '7': expected an integer from 8 to 10000",
            "too many client threads | jwd.client_threads=10001     | jwd.client_threads = '10001': expected an integer from 8 to 10000",
            "client threads not a number | jwd.client_threads=many  | jwd.client_threads = 'many': expected an integer from 8 to 10000",
            "no connections per server | jwd.connections_per_server=0 | jwd.connections_per_server = '0': expected an integer from 1 to 65536",
            "too many connections per server | jwd.connections_per_server=65537 | jwd.connections_per_server = '65537': expected an integer from 1 to 65536",
            "connections per server not a number | jwd.connections_per_server=lots | jwd.connections_per_server = 'lots': expected an integer from 1 to 65536",
            "unknown strategy    | wdisp/load_balancing_strategy=lru  | wdisp/load_balancing_strategy = 'lru': expected weighted_round_robin or simple_weighted_round_robin",
            "bad root handler    | is/HTTP/default_root_hdl=php       | is/HTTP/default_root_hdl = 'php': expected abap or j2ee",
            "bad boolean         | jwd.debug_headers=maybe            | jwd.debug_headers = 'maybe': expected true or false",
            "bad table size      | wdisp/HTTP/max_session_tab_entries=0 | wdisp/HTTP/max_session_tab_entries = '0': expected a positive integer",
            "prefix without /    | icf.url_prefixes=sap/bc/           | icf.url_prefixes = 'sap/bc/': expected each prefix to start with '/' (or case:/ or icase:/)",
            "undefined logon group | server.a.logon_groups=NOPE       | server.a.logon_groups = 'NOPE': expected a logon group defined by logon_group.NOPE.url_prefixes",
            "bad logon group type | logon_group.G.type=X              | logon_group.G.type = 'X': expected B, R or W",
            "bad http_balancing  | logon_group.G.http_balancing=B     | logon_group.G.http_balancing = 'B': expected strategy (wdisp/load_balancing_strategy, by capacity) or quality (the logon group's type B, R or W)",
            "bad server id       | server.a b.url=http://h:1          | expected a known key",
            "bad prefixes URL    | icf.url_prefixes_url=file:///etc/x | icf.url_prefixes_url = 'file:///etc/x': expected an http:// or https:// URL"})
    void namesTheKeyTheValueAndWhatIsExpected(String what, String line, String message) {
        String key = line.substring(0, line.indexOf('='));
        String base = A.lines().filter(l -> !l.startsWith(key + "=")).map(l -> l + "\n")
                .collect(java.util.stream.Collectors.joining());
        ConfigException e = problems(base + line + "\n");

        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(message));
    }

    @Test
    void aServersHealthPathIsAPathStartingWithASlashWithoutBlanks() throws Exception {
        assertThat(parse(A + "server.a.health_path=/ping?deep=1\n").servers().get(0).healthPath())
                .isEqualTo("/ping?deep=1");
        assertThat(parse(A).servers().get(0).healthPath()).isEqualTo("/");
        assertThat(parse("server.b.url=http://127.0.0.1:8082\nserver.b.type=abap\n").servers().get(0).healthPath())
                .isEqualTo(ServerConfig.ABAP_PING_PATH);
        assertThat(problems(A + "server.a.health_path=ping\n").problems()).containsExactly(
                "test.properties:3: server.a.health_path = 'ping': expected a path starting with '/'");
        assertThat(problems(A + "server.a.health_path=/a b\n").problems()).containsExactly(
                "test.properties:3: server.a.health_path = '/a b': expected a path starting with '/'");
    }

    @Test
    void aLastLineEndingInABackslashIsReadNotDropped() throws Exception {
        DispatcherConfig config = parse(A + "icf.url_prefixes=/sap/bc/\\");

        assertThat(config.urlMapping().urlPrefixes()).containsExactly("/sap/bc/");
    }

    @Test
    void aServerWithOnlyAnHttpsUrlIsValid() throws Exception {
        DispatcherConfig config = parse("server.s.https_url=https://host1:50001\nserver.s.type=abap\n");

        ServerConfig s = config.servers().get(0);
        assertThat(s.url()).isNull();
        assertThat(s.httpsUrl()).hasToString("https://host1:50001");
        assertThat(s).hasToString("s(abap https://host1:50001 capacity 1)");
    }

    @Test
    void aBadHttpsUrlOfAServerWithoutUrlIsNamedAlone() {
        ConfigException e = problems("server.s.https_url=http://host1:50001\nserver.s.type=j2ee\n");

        assertThat(e.problems()).singleElement().asString()
                .contains("server.s.https_url = 'http://host1:50001': expected https://host:port");
    }

    @Test
    void aMissingUrlOrTypeIsNamed() {
        ConfigException e = problems("server.b.capacity=2\n");

        assertThat(e.problems()).containsExactlyInAnyOrder(
                "test.properties: server.b.url and server.b.https_url are both missing: every server needs "
                        + "http://host:port, https://host:port or both",
                "test.properties: server.b.type is missing: expected j2ee or abap");
    }

    @Test
    void aKeyGivenTwiceIsAnErrorNamingBothLines() {
        ConfigException e = problems(A + "\nserver.a.capacity=2\nserver.a.capacity=3\n");

        assertThat(e.problems()).containsExactly(
                "test.properties:5: server.a.capacity is given twice (first on line 4): expected each key once");
    }

    @Test
    void reportsEveryProblemAtOnceWithItsLine() {
        ConfigException e = problems("""
                server.a.url=http://127.0.0.1:1
                server.a.type=j2e
                server.a.capacity=0
                jwd.colour=blue
                """);

        assertThat(e.problems()).hasSize(3);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("test.properties:2: server.a.type"))
                .anySatisfy(p -> assertThat(p).startsWith("test.properties:3: server.a.capacity"))
                .anySatisfy(p -> assertThat(p).startsWith("test.properties:4: jwd.colour"));
        assertThat(e.getMessage()).contains("server.a.type", "server.a.capacity", "jwd.colour");
    }

    @Test
    void continuationLinesAndEscapesAreReadAsJavaPropertiesAre() throws Exception {
        DispatcherConfig config = parse(A + "icf.url_prefixes=/sap/bc/,\\\n    /sap/public/\n");

        assertThat(config.urlMapping().urlPrefixes()).containsExactly("/sap/bc/", "/sap/public/");
    }

    @Test
    void aMissingFileNamesItsPath(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");

        assertThatThrownBy(() -> ConfigReader.load(missing)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(missing.toAbsolutePath().toString()).hasMessageContaining("does not exist");
    }
    @Test
    void theStopsDelayAndTimeoutAreReadForJetty() throws Exception {
        DispatcherConfig config = parse(A + "jwd.stop_delay=2s\njwd.stop_timeout=10s\n");

        assertThat(config.forwarding().stop()).isEqualTo(new StopConfig(Duration.ofSeconds(2), Duration.ofSeconds(10)));
        assertThat(parse(A).forwarding().stop()).isEqualTo(new StopConfig(Duration.ZERO, Duration.ofSeconds(30)));
    }

    @Test
    void aLogonGroupsBalancingIsNamedAsTheConfigurationWritesIt() {
        assertThat(LogonGroupConfig.HttpBalancing.QUALITY.key()).isEqualTo("quality");
        assertThat(LogonGroupConfig.HttpBalancing.STRATEGY.key()).isEqualTo("strategy");
    }

    @Test
    void anLbIdWithEmptyParenthesesIsItsOwnInstance() {
        assertThat(ServerConfig.defaultInstanceId("(J2EE6906720)6906750")).isEqualTo("J2EE6906720");
        assertThat(ServerConfig.defaultInstanceId("()6906750")).isEqualTo("()6906750");
        assertThat(ServerConfig.defaultInstanceId("6906750")).isEqualTo("6906750");
    }

    @Test
    void theHealthChecksSettingsAreLoggedAsAnOperatorWritesThem() {
        assertThat(new HealthConfig(Duration.ofSeconds(5), Duration.ofMillis(1500), 2, 3))
                .hasToString("health checks every 5s (timeout 1500ms, rise 2, fall 3, status 200-399)");
    }
}
