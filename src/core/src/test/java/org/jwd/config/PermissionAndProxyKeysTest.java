package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jwd.filter.PermissionTable;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code wdisp/permission_table} and {@code jwd.trusted_proxies}, as the configuration reads them. */
class PermissionAndProxyKeysTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @Test
    void withoutTheKeysNothingIsFilteredAndNobodyTrusted() throws Exception {
        DispatcherConfig config = ConfigReader.parse(A, "test.properties");

        assertThat(config.section(PermissionTable.class)).isSameAs(PermissionTable.NONE);
        assertThat(config.forwarding().trustedProxies()).isEqualTo(TrustedProxies.NONE);
        assertThat(config.forwarding().trustedProxies().trusts("127.0.0.1")).isFalse();
    }

    @Test
    void aRelativeTableIsReadFromThePropertiesFilesDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("ptab.txt"), "D /sap/admin/*\n");
        Path properties = dir.resolve("jwd.properties");
        Files.writeString(properties, A + "wdisp/permission_table=ptab.txt\n");

        DispatcherConfig config = ConfigReader.load(properties);

        PermissionTable.Rule rule = config.section(PermissionTable.class).match("/sap/admin/x", ServerType.J2EE);
        assertThat(rule.line()).isEqualTo(1);
        assertThat(rule.file()).isEqualTo(dir.toAbsolutePath().resolve("ptab.txt").toString());
    }

    @Test
    void anAbsoluteTableIsReadWhereItIs(@TempDir Path dir) throws Exception {
        Path table = dir.resolve("ptab.txt");
        Files.writeString(table, "D *\n");

        DispatcherConfig config = ConfigReader.parse(A + "wdisp/permission_table=" + table + "\n", "t.properties",
                Path.of("/nonexistent"));

        assertThat(config.section(PermissionTable.class).match("/x", ServerType.J2EE)).isNotNull();
    }

    @Test
    void aMissingTableIsAConfigurationErrorNamingKeyAndFile(@TempDir Path dir) {
        assertThatThrownBy(() -> ConfigReader.parse(A + "wdisp/permission_table=nope.txt\n", "t.properties", dir))
                .isInstanceOf(ConfigException.class)
                .hasMessage("t.properties:3: wdisp/permission_table = 'nope.txt': permission table "
                        + dir.toAbsolutePath().resolve("nope.txt") + " does not exist: expected a file of P/D/S lines");
    }

    @Test
    void aMalformedLineOfTheTableIsAConfigurationErrorNamingItsFileAndLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("ptab.txt"), "P /ok\nD /a*b\n");

        assertThatThrownBy(() -> ConfigReader.parse(A + "wdisp/permission_table=ptab.txt\n", "t.properties", dir))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("ptab.txt") + ":2: 'D /a*b': '*' stands in the middle");
    }

    @Test
    void trustedProxiesAreAddressesAndRangesOfBothFamilies() throws Exception {
        TrustedProxies proxies = ConfigReader.parse(A + "jwd.trusted_proxies=127.0.0.1, 10.0.0.0/8 ,"
                + " 192.168.1.128/25, ::1, fd00::/8\n", "t.properties").forwarding().trustedProxies();

        assertThat(proxies.trusts("127.0.0.1")).isTrue();
        assertThat(proxies.trusts("127.0.0.2")).isFalse();
        assertThat(proxies.trusts("10.255.1.2")).isTrue();
        assertThat(proxies.trusts("11.0.0.1")).isFalse();
        assertThat(proxies.trusts("192.168.1.128")).isTrue();
        assertThat(proxies.trusts("192.168.1.255")).isTrue();
        assertThat(proxies.trusts("192.168.1.127")).isFalse();
        assertThat(proxies.trusts("::1")).isTrue();
        assertThat(proxies.trusts("[::1]")).isTrue();
        assertThat(proxies.trusts("0:0:0:0:0:0:0:1")).isTrue();
        assertThat(proxies.trusts("::2")).isFalse();
        assertThat(proxies.trusts("fd12:3456::1")).isTrue();
        assertThat(proxies.trusts("fe80::1")).isFalse();
        // An IPv4-mapped IPv6 address is the IPv4 address.
        assertThat(proxies.trusts("::ffff:10.1.2.3")).isTrue();
        // No name is ever resolved: what is not a literal is not trusted.
        assertThat(proxies.trusts("localhost")).isFalse();
        assertThat(proxies.trusts(null)).isFalse();
        assertThat(proxies.toString()).isEqualTo("TrustedProxies[127.0.0.1, 10.0.0.0/8, 192.168.1.128/25, ::1, fd00::/8]");
    }

    @Test
    void aSlashZeroRangeTrustsEveryAddressOfItsFamily() throws Exception {
        TrustedProxies proxies = ConfigReader.parse(A + "jwd.trusted_proxies=0.0.0.0/0\n", "t").forwarding().trustedProxies();

        assertThat(proxies.trusts("203.0.113.9")).isTrue();
        assertThat(proxies.trusts("2001:db8::1")).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "localhost", "10.0.0.0/33", "10.0.0/8", "256.1.1.1", "1.2.3.4/", "1.2.3.4/x", "::1/129", "fe80::1%eth0",
            "gg::1", "1.2.3.4.5", "1.2.3.-4",
    })
    void aMalformedTrustedProxyIsNamed(String entry) {
        assertThatThrownBy(() -> ConfigReader.parse(A + "jwd.trusted_proxies=127.0.0.1," + entry + "\n", "t.properties"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("t.properties:3: jwd.trusted_proxies entry '" + entry
                        + "': expected an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)");
    }
}
