package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The discovery's keys as SAP writes them: the profile's {@code rdisp/mshost} and {@code ms/http_port}, the entries'
 * {@code MSHOST}, {@code MSPORT}, {@code MSSPORT} and {@code SILOC} (SAP Help, "wdisp/system_&lt;xx&gt;",
 * help.sap.com/doc/683d6a1797a34730a6e005d1e8de6f22/7.4.27/en-US/1bb0fd8a12344c4ca89b7a1c5d1d7310.html), and what is
 * refused with what to write.
 */
class DiscoveryConfigTest {
    private static DiscoveryConfig read(String text) throws ConfigException {
        DispatcherConfig config = ConfigReader.parse(text, "test.properties");
        return config.section(DiscoveryConfig.class);
    }

    private static List<String> problems(String text) {
        try {
            ConfigReader.parse(text, "test.properties");
            return List.of();
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            the two lines of every Web Dispatcher profile | rdisp/mshost = erpms\\nms/http_port = 8101                                  | http://erpms:8101/msgserver/text/logon?version=1.2
            the HTTPS port, asked when given              | rdisp/mshost = erpms\\nms/http_port = 8101\\nms/https_port = 44301           | https://erpms:44301/msgserver/text/logon?version=1.2
            another location                              | rdisp/mshost = erpms\\nms/http_port = 8101\\nwdisp/server_info_location = /msgserver/text/logon?x=1 | http://erpms:8101/msgserver/text/logon?x=1&version=1.2
            a server list in a file                       | wdisp/server_info_location = file:///etc/sap/info.icr                       | file:///etc/sap/info.icr
            a system's MSHOST and MSPORT                  | wdisp/system_0 = SID=ERP, MSHOST=erpms, MSPORT=8101, SRCURL=/sap/             | http://erpms:8101/msgserver/text/logon?version=1.2
            a system's MSSPORT                            | wdisp/system_0 = SID=ERP, MSHOST=erpms, MSSPORT=44301, SRCURL=/sap/           | https://erpms:44301/msgserver/text/logon?version=1.2
            a system's SILOC                              | wdisp/system_0 = SID=ERP, SILOC=file:///etc/sap/erp.icr, SRCURL=/sap/         | file:///etc/sap/erp.icr
            """)
    void theServerListIsAskedWhereSapsLinesSay(String what, String lines, String url) throws ConfigException {
        DiscoveryConfig config = read(lines.replace("\\n", "\n"));

        assertThat(config.sources()).singleElement().satisfies(s -> assertThat(s.serverList()).hasToString(url));
        assertThat(config.refresh()).hasSeconds(25);
        assertThat(config.timeout()).hasSeconds(5);
    }

    @Test
    void noMessageServerNoDiscovery() throws ConfigException {
        assertThat(read("server.a.url = http://127.0.0.1:9001\nserver.a.type = j2ee\n").enabled()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            the message server's own protocol port    | rdisp/mshost = erpms\\nrdisp/msserv = 3601                   | write ms/http_port = <the message server's HTTP port>
            a host without a port                     | rdisp/mshost = erpms                                          | expected ms/http_port (the message server's HTTP port) or ms/https_port beside it
            a port without a host                     | ms/http_port = 8101                                           | beside rdisp/mshost = <the message server's host>
            a port that is no port                    | rdisp/mshost = erpms\\nms/http_port = http                     | ms/http_port = 'http': expected a port number (1-65535)
            MSHOST without its port                   | wdisp/system_0 = SID=ERP, MSHOST=erpms, SRCURL=/sap/          | MSHOST needs the message server's HTTP port, MSPORT=<port>, or its HTTPS port
            MSPORT without MSHOST                     | wdisp/system_0 = SID=ERP, MSPORT=8101, SRCURL=/sap/           | MSPORT and MSSPORT are the ports of MSHOST
            MSHOST beside EXTSRV                      | wdisp/system_0 = SID=ERP, MSHOST=ms, MSPORT=1, EXTSRV=http://a:1, SRCURL=/x/ | MSHOST, EXTSRV and SILOC each give the system's servers
            SILOC that is no file                     | wdisp/system_0 = SID=ERP, SILOC=http://x/, SRCURL=/sap/       | SILOC 'http://x/': expected file://<path of a server list>
            a location that is no path                | rdisp/mshost = erpms\\nms/http_port = 1\\nwdisp/url_map_location = icr | wdisp/url_map_location = 'icr': expected a path starting with '/' or file://<path>
            wdisp/server_<xx> without NAME            | wdisp/server_0 = LBA=3                                        | expected NAME=<SAP instance name>
            wdisp/server_<xx> with a bad capacity     | wdisp/server_0 = NAME=a_ERP_00, LBA=many                      | LBA 'many': expected a positive integer
            """)
    void aLineThatCannotBeFollowedIsRefusedSayingWhatToWrite(String what, String lines, String problem) {
        assertThat(problems(lines.replace("\\n", "\n"))).anySatisfy(p -> assertThat(p).contains(problem));
    }

    @Test
    void wdispServerNamesAnInstanceWithItsCapacitiesAndActivity() throws ConfigException {
        DiscoveryConfig config = read("rdisp/mshost = erpms\nms/http_port = 8101\n"
                + "wdisp/server_0 = NAME=ls1_ERP_00, LBA=8, LBJ=2, ACTIVE=0\n");

        assertThat(config.override("ls1_ERP_00")).isEqualTo(new ServerOverride("wdisp/server_0", "ls1_ERP_00", 8, 2,
                false));
        assertThat(config.override("ls2_ERP_01")).isNull();
    }

    @Test
    void aConfigurationOfTheTwoLinesAloneIsValid() {
        assertThat(problems("rdisp/mshost = erpms\nms/http_port = 8101\n")).isEmpty();
        // the HTTPS-enabled servers may come from the message server
        assertThat(problems("rdisp/mshost = erpms\nms/http_port = 8101\nwdisp/ssl_encrypt = 1\n")).isEmpty();
        assertThat(problems("wdisp/system_0 = SID=ERP, MSHOST=erpms, MSPORT=8101, SRCURL=/, SSL_ENCRYPT=1\n"))
                .isEmpty();
        assertThatThrownBy(() -> read("rdisp/mshost = erpms\n")).isInstanceOf(ConfigException.class);
    }
}
