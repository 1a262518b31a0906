package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class TlsStatusTest {
    @Test
    void whatTheServerLevelWritesTheWebappReadsBackWhateverTheFieldsHold() {
        TlsStatus status = new TlsStatus(List.of(
                new TlsStatus.Presented("icm/server_port_1 (ssl_config_1)", "[/sec/portal.p12, /sec/erp.p12]", List.of(
                        new CertificateInfo("portal", "CN=portal.example,O=A\\, B", "CN=CA", List.of("portal.example",
                                "10.0.0.1"), Instant.ofEpochMilli(1_800_000_000_000L)),
                        new CertificateInfo("erp", "CN=tab\there", "CN=line\nbreak", List.of(),
                                Instant.ofEpochMilli(1_700_000_000_000L))),
                        Instant.ofEpochMilli(1_600_000_000_000L), null),
                new TlsStatus.Presented("--https-port (jwd.ssl_keystore)", "[/jwd.p12]", List.of(),
                        Instant.ofEpochMilli(1), "/jwd.p12 does not open: expected ...")));

        assertThat(TlsStatus.decode(status.encode())).isEqualTo(status);
        assertThat(TlsStatus.decode("")).isEqualTo(new TlsStatus(List.of()));
    }
}
