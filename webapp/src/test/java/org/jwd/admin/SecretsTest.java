package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void masksEveryKeyNamingAPasswordAndNothingElse() {
        for (String key : new String[] {"admin.password_hash", "jwd.ssl_keystore_password",
                "wdisp/ssl_truststore_password", "some.future_Password"}) {
            assertThat(Secrets.masked(key, "s3cret")).as(key).isEqualTo("(hidden)");
        }
        for (String key : new String[] {"admin.user", "server.a.url", "jwd.ssl_keystore"}) {
            assertThat(Secrets.masked(key, "shown")).as(key).isEqualTo("shown");
        }
    }

    @Test
    void leavesAnAbsentValueAbsent() {
        assertThat(Secrets.masked("admin.password_hash", null)).isNull();
    }
}
