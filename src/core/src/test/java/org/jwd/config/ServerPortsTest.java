package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jwd.config.ServerPorts.Protocol;
import org.jwd.config.ServerPorts.ServerPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SAP's {@code icm/server_port_<xx>} lines as jwd's listeners: what each line may say, and what the lines share. */
class ServerPortsTest {
    private KeyReader keys;

    private ServerPorts read(String text) {
        keys = KeyReader.parse(text, "sapwebdisp.pfl", Path.of("/etc/jwd"));
        return ServerPorts.read(keys);
    }

    /** The lines, which must all be accepted. */
    private ServerPorts accepted(String text) throws ConfigException {
        ServerPorts ports = read(text);
        keys.checkEveryKeyRead();
        return ports;
    }

    private List<String> problems(String text) {
        read(text);
        return catchThrowableOfType(ConfigException.class, keys::checkEveryKeyRead).problems();
    }

    @Test
    void aLineNamesItsKeyProtocolPortAndHostWhereTheOperatorIsToldOfIt() throws Exception {
        List<ServerPort> ports = accepted("""
                icm/server_port_0 = PROT=HTTP, PORT=8000
                icm/server_port_1 = PROT=HTTPS, PORT=8443, HOST=10.0.0.1
                """).ports();

        assertThat(ports).map(ServerPort::toString).containsExactly("icm/server_port_0 (PROT=HTTP, PORT=8000)",
                "icm/server_port_1 (PROT=HTTPS, PORT=8443, HOST=10.0.0.1)");
    }

    @Test
    void portsZeroAnd65535AreListenedOnAndNoneOutsideThem() throws Exception {
        ServerPorts ports = accepted("""
                icm/server_port_0 = PROT=HTTP, PORT=0
                icm/server_port_1 = PROT=HTTP, PORT=65535
                """);

        assertThat(ports.of(Protocol.HTTP)).extracting(ServerPort::port).containsExactly(0, 65535);
        assertThat(problems("icm/server_port_0 = PROT=HTTP, PORT=-1\nicm/server_port_1 = PROT=HTTP, PORT=65536\n"))
                .containsExactly(
                        "sapwebdisp.pfl:1: icm/server_port_0 = 'PROT=HTTP, PORT=-1': PORT=-1 is not a port number"
                                + " (0 to 65535; 0 takes any free port)",
                        "sapwebdisp.pfl:2: icm/server_port_1 = 'PROT=HTTP, PORT=65536': PORT=65536 is not a port"
                                + " number (0 to 65535; 0 takes any free port)");
    }

    @Test
    void aLineWithNolistenIsNamedButNotOpenedAndTheFlagsTakeZeroOrOne() throws Exception {
        ServerPorts ports = accepted("""
                icm/server_port_0 = PROT=HTTP, PORT=8000, NOLISTEN=1, EXTBIND=1
                icm/server_port_1 = PROT=HTTP, PORT=8001, NOLISTEN=0, EXTBIND=0
                icm/server_port_2 = PROT=HTTP, PORT=8002
                """);

        assertThat(ports.ports()).extracting(ServerPort::port, ServerPort::listens)
                .containsExactly(tuple(8000, false), tuple(8001, true), tuple(8002, true));
        assertThat(ports.of(Protocol.HTTP)).extracting(ServerPort::port).containsExactly(8001, 8002);
        assertThat(problems("icm/server_port_0 = PROT=HTTP, PORT=8000, NOLISTEN=2\n")).containsExactly(
                "sapwebdisp.pfl:1: icm/server_port_0 = 'PROT=HTTP, PORT=8000, NOLISTEN=2': NOLISTEN=2: expected 0 or 1");
    }

    @Test
    void theIdleTimeoutIsTheOneTheLinesThatGiveOneAgreeOn() throws Exception {
        ServerPorts ports = accepted("""
                icm/server_port_0 = PROT=HTTP, PORT=8000
                icm/server_port_1 = PROT=HTTPS, PORT=8443, TIMEOUT=60, PROCTIMEOUT=600
                icm/server_port_2 = PROT=HTTP, PORT=8001, TIMEOUT=60, PROCTIMEOUT=600
                """);

        assertThat(ports.timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(ports.procTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(accepted("icm/server_port_0 = PROT=HTTP, PORT=8000\n").timeout()).isNull();
    }

    @Test
    void linesThatGiveDifferentIdleTimeoutsAreRefusedAtTheFirstThatDiffers() {
        assertThat(problems("""
                icm/server_port_0 = PROT=HTTP, PORT=8000, TIMEOUT=60
                icm/server_port_1 = PROT=HTTP, PORT=8001
                icm/server_port_2 = PROT=HTTP, PORT=8002, TIMEOUT=90
                icm/server_port_3 = PROT=HTTP, PORT=8003, TIMEOUT=120
                """)).containsExactly("sapwebdisp.pfl:3: icm/server_port_2: TIMEOUT differs from icm/server_port_0's"
                + " (jwd's listeners share one idle timeout): expected the same TIMEOUT on every line that gives one");
    }

    @Test
    void aSecondRouterLineIsRefusedUnlessItDoesNotListen() throws Exception {
        assertThat(problems("""
                icm/server_port_0 = PROT=ROUTER, PORT=4443
                icm/server_port_1 = PROT=ROUTER, PORT=4444
                """)).containsExactly("sapwebdisp.pfl:2: icm/server_port_1 = 'PROT=ROUTER, PORT=4444': jwd has one"
                + " end-to-end TLS listener, and icm/server_port_0 declares it already: expected one PROT=ROUTER line");

        ServerPorts ports = accepted("""
                icm/server_port_0 = PROT=ROUTER, PORT=4443, NOLISTEN=1
                icm/server_port_1 = PROT=ROUTER, PORT=4444
                icm/server_port_2 = PROT=HTTP, PORT=8000
                """);
        assertThat(ports.of(Protocol.ROUTER)).extracting(ServerPort::port).containsExactly(4444);
    }

    @Test
    void anHttpsLineTakesSslconfigAndVclient() throws Exception {
        ServerPort https = accepted("icm/server_port_0 = PROT=HTTPS, PORT=443, SSLCONFIG=ssl_config_1, VCLIENT=2\n")
                .of(Protocol.HTTPS).get(0);

        assertThat(https.sslConfig()).isEqualTo("ssl_config_1");
        assertThat(https.verifyClient()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "VCLIENT on HTTP             | PROT=HTTP, PORT=80, VCLIENT=1                | VCLIENT is for PROT=HTTPS lines: jwd decrypts no other port",
            "SSLCONFIG on ROUTER         | PROT=ROUTER, PORT=4443, SSLCONFIG=ssl_config_1 | SSLCONFIG is for PROT=HTTPS lines: jwd decrypts no other port",
            "both, and a bad VCLIENT     | PROT=HTTP, PORT=80, SSLCONFIG=s, VCLIENT=9   | SSLCONFIG is for PROT=HTTPS lines: jwd decrypts no other port",
            "an empty SSLCONFIG          | PROT=HTTPS, PORT=443, SSLCONFIG=             | SSLCONFIG is empty: expected the ID of an icm/ssl_config_<xx>, or ssl_config_<xx>",
            "a sub-parameter without name | PROT=HTTP, PORT=80, =81                      | '=81' is not NAME=value",
            "a part without =            | PROT=HTTP, PORT=80, 81                       | '81' is not NAME=value",
            "one given twice             | PROT=HTTP, PORT=80, port=81                  | PORT is given twice"})
    void aLineIsRefusedNamingExactlyWhatIsWrongWithIt(String what, String value, String why) {
        assertThat(problems("icm/server_port_0 = " + value + "\n"))
                .containsExactly("sapwebdisp.pfl:1: icm/server_port_0 = '" + value + "': " + why);
    }
}
