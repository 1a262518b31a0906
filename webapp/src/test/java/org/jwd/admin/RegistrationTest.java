package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

class RegistrationTest {
    private final DispatcherConfig config;

    RegistrationTest() throws ConfigException {
        config = ConfigReader.parse("server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n"
                + "logon_group.PORTAL.url_prefixes=/irj\n", "test.properties");
    }

    private ServerConfig parse(String id, String json) throws ConfigException {
        return Registration.parse(id, AdminJson.readUntrusted(json), config).server();
    }

    private static final String TWO_SYSTEMS = """
            wdisp/system_0=SID=ERP, SRCURL=/sap/
            wdisp/system_1=SID=PRT, SRCURL=/irj/
            system.ERP.server.erp1.url=http://127.0.0.1:9001
            system.ERP.server.erp1.type=j2ee
            system.PRT.server.prt1.url=http://127.0.0.1:9002
            system.PRT.server.prt1.type=j2ee
            system.PRT.logon_group.PORTAL.url_prefixes=/irj/portal
            """;

    private static Registration.Reported parseInSystems(String id, String json) throws ConfigException {
        return Registration.parse(id, AdminJson.readUntrusted(json), ConfigReader.parse(TWO_SYSTEMS, "test.properties"));
    }

    @Test
    void withSystemsAreportNamesItsSystemWhoseLogonGroupsItMayJoin() throws Exception {
        Registration.Reported r = parseInSystems("n1", "{\"url\":\"http://10.0.0.7:50000\",\"type\":\"j2ee\","
                + "\"system\":\"PRT\",\"logon_groups\":[\"PORTAL\"]}");

        assertThat(r.system()).isEqualTo("PRT");
        assertThat(r.server().logonGroups()).containsExactly("PORTAL");
        assertThat(r.server().id()).isEqualTo("n1");
    }

    @Test
    void withSystemsTheSystemIsRequiredAndMustBeConfigured() {
        assertThat(catchThrowableOfType(ConfigException.class, () -> parseInSystems("n1",
                "{\"url\":\"http://h:1\",\"type\":\"j2ee\"}")).problems())
                .containsExactly("system = '': expected the SID of the server's system: one of ERP, PRT (required)");
        assertThat(catchThrowableOfType(ConfigException.class, () -> parseInSystems("n1",
                "{\"url\":\"http://h:1\",\"type\":\"j2ee\",\"system\":\"QAS\"}")).problems())
                .containsExactly("system = 'QAS': expected the SID of the server's system: one of ERP, PRT");
    }

    @Test
    void withSystemsALogonGroupOfAnotherSystemIsRefused() {
        assertThat(catchThrowableOfType(ConfigException.class, () -> parseInSystems("n1",
                "{\"url\":\"http://h:1\",\"type\":\"j2ee\",\"system\":\"ERP\",\"logon_groups\":\"PORTAL\"}"))
                .problems()).containsExactly("logon_groups = 'PORTAL': expected a logon group defined by "
                        + "logon_group.PORTAL.url_prefixes in the configuration");
    }

    @Test
    void withoutSystemsAsystemFieldIsRefusedAndTheKnownFieldsStayAsTheyWere() {
        assertThat(catchThrowableOfType(ConfigException.class, () -> parse("n1",
                "{\"url\":\"http://h:1\",\"type\":\"j2ee\",\"system\":\"ERP\"}")).problems())
                .containsExactly("system = 'ERP': expected no system field: this jwd has no wdisp/system_<xx> entries,"
                        + " so every server belongs to its one implicit system");
        assertThat(catchThrowableOfType(ConfigException.class, () -> parse("n1",
                "{\"url\":\"http://h:1\",\"type\":\"j2ee\",\"sytem\":\"ERP\"}")).problems())
                .containsExactly("sytem = 'ERP': expected a known field: one of capacity, health_fall, health_interval,"
                        + " health_path, health_rise, health_status, health_timeout, https_url, instance_id, lb_id,"
                        + " logon_groups, name, route, state, type, url");
    }

    @Test
    void readsAReportWithTheConfigurationFilesDefaults() throws Exception {
        ServerConfig s = parse("n1", "{\"url\":\"http://10.0.0.7:50000/\",\"type\":\"j2ee\"}");

        assertThat(s).isEqualTo(new ServerConfig("n1", URI.create("http://10.0.0.7:50000"), null, ServerType.J2EE, 1,
                java.util.Set.of(), "n1", "n1", null, "/"));
    }

    @Test
    void aServerWithOnlyAnHttpsUrlMayRegisterAsTheConfigurationFileAllows() throws Exception {
        ServerConfig s = parse("n2", "{\"https_url\":\"https://10.0.0.8:50001\",\"type\":\"j2ee\"}");

        assertThat(s.url()).isNull();
        assertThat(s.httpsUrl()).isEqualTo(URI.create("https://10.0.0.8:50001"));
    }

    @Test
    void readsEveryField() throws Exception {
        ServerConfig s = parse("abap1", "{\"url\":\"http://h:8000\",\"type\":\"abap\",\"capacity\":3,"
                + "\"logon_groups\":\"PORTAL\",\"https_url\":\"https://h:8443\",\"lb_id\":\"x\",\"name\":\"h_SID_00\","
                + "\"route\":\"r1\"}");

        assertThat(s.capacity()).isEqualTo(3);
        assertThat(s.logonGroups()).containsExactly("PORTAL");
        assertThat(s.httpsUrl()).isEqualTo(URI.create("https://h:8443"));
        assertThat(s.name()).isEqualTo("h_SID_00");
        assertThat(s.healthPath()).as("SAP's ping for ABAP servers").isEqualTo("/sap/public/icman/ping");
        assertThat(parse("j", "{\"url\":\"http://h:1\",\"type\":\"j2ee\",\"logon_groups\":[\"PORTAL\"],"
                + "\"health_path\":\"/health\"}").healthPath()).isEqualTo("/health");
    }

    @Test
    void namesEveryProblem() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse("n1",
                "{\"url\":\"ftp://h\",\"type\":\"cobol\",\"capacity\":0,\"logon_groups\":[\"NOPE\"],\"load\":5}"));

        assertThat(e.problems()).containsExactly(
                "load = '5': expected a known field: one of capacity, health_fall, health_interval, health_path, "
                        + "health_rise, health_status, health_timeout, https_url, instance_id, lb_id, "
                        + "logon_groups, name, route, state, type, url",
                "url = 'ftp://h': expected http://host:port",
                "type = 'cobol': expected j2ee or abap",
                "capacity = '0': expected a positive integer",
                "logon_groups = 'NOPE': expected a logon group defined by logon_group.NOPE.url_prefixes in the "
                        + "configuration");
    }

    @Test
    void needsUrlTypeAnObjectAndAnId() {
        assertThat(catchThrowableOfType(ConfigException.class, () -> parse("n1", "{}")).problems())
                .containsExactly("url = '': expected http://host:port, or https_url = https://host:port, or both "
                                + "(one is required)",
                        "type = '': expected j2ee or abap (required)");
        assertThat(catchThrowableOfType(ConfigException.class, () -> parse("n1", "[1]")).problems())
                .containsExactly("body = '[1]': expected a JSON object");
        assertThat(catchThrowableOfType(ConfigException.class, () -> parse("a b", "{}")).problems())
                .containsExactly("id = 'a b': expected a server id of letters, digits, '_' or '-'");
    }

    /** A body is read by the file's server section: the same value is refused with the same words, and the same
     * server results from the same values. */
    @Test
    void aBodyFollowsTheRulesOfAServerBlockInTheFile() throws Exception {
        String file = "logon_group.PORTAL.url_prefixes=/irj\nserver.n1.url=http://h:1/app\nserver.n1.type=j2ee\n"
                + "server.n1.capacity=2.5\nserver.n1.lb_id=a b\nserver.n1.health_path=ping\n"
                + "server.n1.logon_groups=PORTAL,NOPE\n";
        ConfigException fromFile = catchThrowableOfType(ConfigException.class,
                () -> ConfigReader.parse(file, "test.properties"));
        ConfigException fromBody = catchThrowableOfType(ConfigException.class, () -> parse("n1",
                "{\"url\":\"http://h:1/app\",\"type\":\"j2ee\",\"capacity\":2.5,\"lb_id\":\"a b\","
                        + "\"health_path\":\"ping\",\"logon_groups\":[\"PORTAL\",\"NOPE\"]}"));

        assertThat(fromFile.problems()).hasSize(5);
        assertThat(fromFile.problems().stream().map(p -> p.replaceFirst("^test\\.properties:\\d+: server\\.n1\\.", "")))
                .containsExactlyElementsOf(fromBody.problems());
        ServerConfig declared = ConfigReader.parse("logon_group.PORTAL.url_prefixes=/irj\n"
                + "server.n1.https_url=https://h:2\nserver.n1.type=abap\nserver.n1.capacity=2\n"
                + "server.n1.logon_groups=PORTAL\nserver.n1.route=r1\n", "test.properties").servers().get(0);
        assertThat(parse("n1", "{\"https_url\":\"https://h:2\",\"type\":\"abap\",\"capacity\":2.0,"
                + "\"logon_groups\":\"PORTAL\",\"route\":\"r1\"}")).isEqualTo(declared);
    }
}
