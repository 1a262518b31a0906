package org.jwd.systems;

import org.jwd.runtime.ConfigReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;
import static org.jwd.systems.Props.problems;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.util.Map;
import java.util.Properties;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.junit.jupiter.api.Test;

class SystemScopeTest {
    private static final Map<String, String> TWO_SYSTEMS = Props.of(
            "wdisp/system_0", "SID=ERP, SRCURL=/sap/, SSL_ENCRYPT=0",
            "wdisp/system_1", "SID=PRT, SRCSRV=*:8081",
            "wdisp/system_conflict_resolution", "0",
            "jwd.default_system", "PRT",
            "SessionTableTimeout", "30s",
            "icf.url_prefixes", "/sap/",
            "jwd.debug_headers", "true",
            "system.ERP.server.abap1.url", "http://127.0.0.1:8001",
            "system.ERP.server.abap1.type", "abap",
            "system.ERP.server.java1.url", "http://127.0.0.1:8002",
            "system.ERP.server.java1.type", "j2ee",
            "system.ERP.is/HTTP/default_root_hdl", "abap",
            "system.PRT.server.java1.url", "http://127.0.0.1:8003",
            "system.PRT.server.java1.type", "j2ee",
            "system.PRT.server.java1.logon_groups", "PORTAL",
            "system.PRT.logon_group.PORTAL.url_prefixes", "/irj/",
            "system.PRT.icf.url_prefixes", "",
            "system.PRT.SessionTableTimeout", "10m");

    /** Today's parser, unchanged, reading a system's configuration. */
    private static DispatcherConfig parseWithTodaysParser(SystemProperties system) throws Exception {
        Properties properties = new Properties();
        properties.putAll(system.properties());
        StringWriter text = new StringWriter();
        try {
            properties.store(text, null);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return ConfigReader.parse(text.toString(), "system " + system.system().sid());
    }

    @Test
    void aSystemGetsItsScopedKeysUnscopedAndTheSharedOnes() throws Exception {
        Systems systems = Systems.parse(TWO_SYSTEMS);

        SystemProperties erp = SystemScope.of(TWO_SYSTEMS, systems.system("ERP"));

        assertThat(erp.properties()).containsExactly(
                entry("SessionTableTimeout", "30s"),
                entry("icf.url_prefixes", "/sap/"),
                entry("is/HTTP/default_root_hdl", "abap"),
                entry("jwd.debug_headers", "true"),
                entry("server.abap1.type", "abap"),
                entry("server.abap1.url", "http://127.0.0.1:8001"),
                entry("server.java1.type", "j2ee"),
                entry("server.java1.url", "http://127.0.0.1:8002"),
                entry("wdisp/ssl_encrypt", "0"));
        assertThat(erp.origin("server.abap1.url")).isEqualTo("system.ERP.server.abap1.url");
        assertThat(erp.origin("wdisp/ssl_encrypt")).isEqualTo("wdisp/system_0");
        assertThat(erp.origin("icf.url_prefixes")).isEqualTo("icf.url_prefixes");
    }

    @Test
    void aScopedKeyWinsOverTheSharedOne() throws Exception {
        Systems systems = Systems.parse(TWO_SYSTEMS);

        SystemProperties prt = SystemScope.of(TWO_SYSTEMS, systems.system("PRT"));

        assertThat(prt.properties()).contains(entry("SessionTableTimeout", "10m"), entry("icf.url_prefixes", ""),
                entry("server.java1.url", "http://127.0.0.1:8003"), entry("logon_group.PORTAL.url_prefixes", "/irj/"));
        assertThat(prt.properties()).doesNotContainKeys("server.abap1.url", "is/HTTP/default_root_hdl",
                "wdisp/ssl_encrypt");
        assertThat(prt.origin("SessionTableTimeout")).isEqualTo("system.PRT.SessionTableTimeout");
    }

    @Test
    void eachSystemsConfigurationIsReadByTodaysParserUnchanged() throws Exception {
        Systems systems = Systems.parse(TWO_SYSTEMS);

        DispatcherConfig erp = parseWithTodaysParser(SystemScope.of(TWO_SYSTEMS, systems.system("ERP")));
        DispatcherConfig prt = parseWithTodaysParser(SystemScope.of(TWO_SYSTEMS, systems.system("PRT")));

        assertThat(erp.servers()).extracting(ServerConfig::id, ServerConfig::type)
                .containsExactly(tuple("abap1", ServerType.ABAP),
                        tuple("java1", ServerType.J2EE));
        assertThat(erp.urlMapping().defaultRootHandler()).isEqualTo(ServerType.ABAP);
        assertThat(erp.sessions().sessionTableTimeout()).hasSeconds(30);
        assertThat(prt.servers()).singleElement().satisfies(s -> {
            assertThat(s.url()).isEqualTo(URI.create("http://127.0.0.1:8003"));
            assertThat(s.logonGroups()).containsExactly("PORTAL");
        });
        assertThat(prt.urlMapping().urlPrefixes()).isEmpty();
        assertThat(prt.sessions().sessionTableTimeout()).hasMinutes(10);
    }

    @Test
    void withoutEntriesTheImplicitSystemHasEveryKeyUnchanged() throws Exception {
        Map<String, String> today = Props.of("server.a.url", "http://127.0.0.1:8081", "server.a.type", "j2ee",
                "icf.url_prefixes", "/sap/", "wdisp/add_saplb_cookie", "true");
        Systems systems = Systems.parse(today);

        SystemProperties implicit = SystemScope.of(today, systems.entries().get(0));

        assertThat(implicit.properties()).isEqualTo(today);
        assertThat(implicit.origins()).isEmpty();
        assertThat(parseWithTodaysParser(implicit).servers()).extracting(ServerConfig::id).containsExactly("a");
    }

    @Test
    void externalServersBecomeTheSystemsServersAndStickyDecidesTheirAffinity() throws Exception {
        Map<String, String> all = Props.of(
                "wdisp/system_0", "SID=SHP, SRCURL=/shop/, EXTSRV=http://127.0.0.1:9001;https://127.0.0.1:9443",
                "wdisp/system_1", "SID=WEB, SRCURL=/web/, EXTSRV=http://127.0.0.1:9002, STICKY=true");
        Systems systems = Systems.parse(all);

        SystemProperties shop = SystemScope.of(all, systems.system("SHP"));
        SystemProperties web = SystemScope.of(all, systems.system("WEB"));

        assertThat(shop.properties()).containsExactly(
                entry("SessionTableTimeout", "0"),
                entry("server.ext1.type", "j2ee"),
                entry("server.ext1.url", "http://127.0.0.1:9001"),
                entry("server.ext2.https_url", "https://127.0.0.1:9443"),
                entry("server.ext2.type", "j2ee"),
                entry("wdisp/HTTP/esid_support", "false"),
                entry("wdisp/HTTP/jsessionid_tab_support", "false"),
                entry("wdisp/add_saplb_cookie", "false"));
        assertThat(shop.origin("server.ext2.https_url")).isEqualTo("wdisp/system_0");
        assertThat(web.properties()).containsExactly(
                entry("server.ext1.type", "j2ee"),
                entry("server.ext1.url", "http://127.0.0.1:9002"),
                entry("wdisp/add_saplb_cookie", "true"));
        assertThat(parseWithTodaysParser(shop).servers()).extracting(ServerConfig::id).containsExactly("ext1", "ext2");
        assertThat(parseWithTodaysParser(web).sessions().addSaplbCookie()).isTrue();
    }

    @Test
    void namesEveryScopedKeyThatCannotBeRead() {
        assertThat(problems(
                "wdisp/system_0", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_1", "SID=SHP, SRCURL=/shop/, EXTSRV=http://127.0.0.1:9001",
                "system.QAS.server.a.url", "http://127.0.0.1:1",
                "system.ERP", "x",
                "system.ERP.jwd.ssl_keystore", "k.p12",
                "system.ERP.wdisp/ssl_encrypt", "1",
                "system.SHP.server.b.url", "http://127.0.0.1:2",
                "server.c.url", "http://127.0.0.1:3")).containsExactly(
                "server.c.url = 'http://127.0.0.1:3': with wdisp/system_<xx> entries every server belongs to a system:"
                        + " expected system.<SID>.server.c.url",
                "system.ERP = 'x': expected system.<SID>.<key>, as system.ERP.server.a.url",
                "system.ERP.jwd.ssl_keystore = 'k.p12': jwd.ssl_keystore is one setting for the whole jwd: expected it"
                        + " without system.ERP. (per system: server.<id>.*, logon_group.<G>.*, SessionTableTimeout,"
                        + " icf.url_prefixes, icf.url_prefixes_url, is/HTTP/default_root_hdl, rdisp/autoabaptime,"
                        + " wdisp/HTTP/context_timeout, wdisp/HTTP/esid_support, wdisp/HTTP/jsessionid_tab_support,"
                        + " wdisp/add_saplb_cookie, wdisp/auto_refresh, wdisp/load_balancing_strategy)",
                "system.ERP.wdisp/ssl_encrypt = '1': expected SSL_ENCRYPT=1 in wdisp/system_0, SAP's place for a"
                        + " system's wdisp/ssl_encrypt",
                "system.QAS.server.a.url = 'http://127.0.0.1:1': expected the SID of a wdisp/system_<xx> entry after"
                        + " system.: one of ERP, SHP",
                "system.SHP.server.b.url = 'http://127.0.0.1:2': EXTSRV of wdisp/system_1 gives SHP's servers already:"
                        + " expected the servers in one place");
    }

    @Test
    void aScopedKeyWithoutAnyEntryNamesThatThereIsNone() {
        assertThat(problems("system.ERP.server.a.url", "http://127.0.0.1:1")).containsExactly(
                "system.ERP.server.a.url = 'http://127.0.0.1:1': expected the SID of a wdisp/system_<xx> entry after"
                        + " system. (there is none)");
    }
}
