package org.jwd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jwd.config.ConfigException;

class AdminAddressTest {
    private static final Function<String, String> NO_ENV = name -> null;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no line                      | server.a.type=j2ee                                               | http://127.0.0.1:8080   | /jwd/admin",
            "a port of every interface    | icm/server_port_0=PROT=HTTP, PORT=8000                           | http://127.0.0.1:8000   | /jwd/admin",
            "a port of one address        | icm/server_port_0=PROT=HTTP, PORT=8000, HOST=10.0.0.5            | http://10.0.0.5:8000    | /jwd/admin",
            "HTTPS alone                  | icm/server_port_0=PROT=HTTPS, PORT=8443                          | https://127.0.0.1:8443  | /jwd/admin",
            "the prefix on every listener | icm/HTTP/admin_0=PREFIX=/sap/wdisp/admin                         | http://127.0.0.1:8080   | /sap/wdisp/admin",
            "a port and address its own   | icm/HTTP/admin_0=PREFIX=/ops/, PORT=8090, HOST=10.0.0.5           | http://10.0.0.5:8090    | /ops",
            "every address                | icm/HTTP/admin_0=PORT=8090, HOST=0.0.0.0                          | http://127.0.0.1:8090   | /jwd/admin",
            "localhost                    | icm/HTTP/admin_0=PORT=8090, HOST=localhost                        | http://127.0.0.1:8090   | /jwd/admin",
            "an IPv6 address              | icm/HTTP/admin_0=PORT=8090, HOST=::1                              | http://[::1]:8090       | /jwd/admin"})
    void theConfigurationSaysWhereItsAdministrationAnswers(String what, String line, String url, String prefix)
            throws Exception {
        AdminAddress address = AdminAddress.of(null, null, config(line), NO_ENV);

        assertThat(address).isEqualTo(new AdminAddress(url, prefix));
    }

    @Test
    void theAdministrationsPortIsHttpsWhenItIsTheHttpsListeners() throws Exception {
        String config = config("icm/server_port_0=PROT=HTTP, PORT=8000\nicm/server_port_1=PROT=HTTPS, PORT=8443\n"
                + "icm/HTTP/admin_0=PORT=8443");

        assertThat(AdminAddress.of(null, null, config, NO_ENV).url()).isEqualTo("https://127.0.0.1:8443");
    }

    @Test
    void urlAndPrefixWinOverTheFileAndTheFileOverJwdUrl() throws Exception {
        String config = config("icm/HTTP/admin_0=PREFIX=/ops, PORT=8090");
        Map<String, String> env = Map.of("JWD_URL", "http://jwd.example:9999");

        assertThat(AdminAddress.of("http://node2:8080", null, config, env::get))
                .isEqualTo(new AdminAddress("http://node2:8080", "/ops"));
        assertThat(AdminAddress.of(null, "/other", config, env::get))
                .isEqualTo(new AdminAddress("http://127.0.0.1:8090", "/other"));
        assertThat(AdminAddress.of(null, null, config, env::get).url()).isEqualTo("http://127.0.0.1:8090");
        assertThat(AdminAddress.of(null, null, null, env::get))
                .isEqualTo(new AdminAddress("http://jwd.example:9999", "/jwd/admin"));
        assertThat(AdminAddress.of(null, null, null, NO_ENV))
                .isEqualTo(new AdminAddress("http://127.0.0.1:8080", "/jwd/admin"));
    }

    @Test
    void aFileThatIsMissingOrWhoseEntryIsBrokenIsNamed() throws Exception {
        String missing = dir.resolve("nope.properties").toString();
        String broken = config("icm/HTTP/admin_0=PREFIX=/ops, PORT=eighty");

        assertThatThrownBy(() -> AdminAddress.of(null, null, missing, NO_ENV))
                .isInstanceOf(ConfigException.class).hasMessageContaining("nope.properties does not exist");
        assertThatThrownBy(() -> AdminAddress.of(null, null, broken, NO_ENV))
                .isInstanceOf(ConfigException.class).hasMessageContaining("icm/HTTP/admin_0: PORT item 'eighty'");
    }

    private String config(String lines) throws IOException {
        return Files.writeString(dir.resolve("jwd.properties"), "server.a.url=http://10.0.0.1:50000\n" + lines
                + "\n").toString();
    }
}
