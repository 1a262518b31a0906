package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

class AdminConfigTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";
    private static final String HASH = PasswordHash.create("pw".toCharArray(), 10_000).toString();

    private static AdminConfig admin(String text) throws ConfigException {
        return SectionFixture.read(A + text, Path.of(""), AdminConfig::read);
    }

    private static ConfigException problems(String text) {
        return (ConfigException) org.assertj.core.api.Assertions.catchThrowable(() -> admin(text));
    }

    @Test
    void isOffWithoutCredentials() throws Exception {
        AdminConfig admin = admin("");

        assertThat(admin.enabled()).isFalse();
        assertThat(admin.registryExpiry()).isEqualTo(Duration.ofSeconds(330));
    }

    @Test
    void isOnWithUserAndHash() throws Exception {
        AdminConfig admin = admin("admin.user=ops\nadmin.password_hash=" + HASH + "\n");

        assertThat(admin.enabled()).isTrue();
        assertThat(admin.users()).extracting(AdminUser::name, AdminUser::role)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ops", AdminRole.ADMIN));
        assertThat(admin.user("ops").passwordHash().matches("pw".toCharArray())).isTrue();
    }

    @Test
    void registeredServersExpireAfterAutoAbapTimeAndATenth() throws Exception {
        assertThat(admin("rdisp/autoabaptime=2\n").registryExpiry()).isEqualTo(Duration.ofMillis(2200));
        assertThat(admin("rdisp/registry_expiry=45\n").registryExpiry()).isEqualTo(Duration.ofSeconds(45));
        assertThat(admin("rdisp/registry_expiry=500ms\n").registryExpiry()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void namesKeyValueAndWhatIsExpected() {
        assertThat(problems("admin.user=ops\n").problems())
                .containsExactly("admin.password_hash = '': expected pbkdf2-sha256$<iterations 1000..10000000>$"
                        + "<salt base64>$<hash base64>, as bin/jwd hash-password prints it, since admin.user is set");
        assertThat(problems("admin.password_hash=" + HASH + "\n").problems())
                .containsExactly("admin.user = '': expected the administrator's user name, since admin.password_hash"
                        + " is set");
        assertThat(problems("admin.user=ops\nadmin.password_hash=secret\n").problems()).singleElement()
                .asString().startsWith("admin.password_hash = 'secret': expected pbkdf2-sha256$");
        assertThat(problems("admin.user=a:b\nadmin.password_hash=" + HASH + "\n").problems())
                .containsExactly("admin.user = 'a:b': expected a user name without ':', spaces or control characters");
        assertThat(problems("rdisp/registry_expiry=soon\n").problems())
                .containsExactly("rdisp/registry_expiry = 'soon': expected a positive number of seconds, or a number"
                        + " with a unit (500ms, 30s, 10m, 1h)");
        assertThat(problems("rdisp/registry_expiry=0\n").problems()).hasSize(1);
    }

    @Test
    void theDispatcherChecksThemBeforeItStarts() throws Exception {
        assertThatThrownBy(() -> ConfigReader.parse(A + "admin.user=ops\n", "test.properties"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("admin.password_hash");
    }

    @Test
    void severalUsersEachWithAHashAndARoleMonitorByDefault() throws Exception {
        AdminConfig admin = admin("admin.user=ops\nadmin.password_hash=" + HASH + "\n"
                + "admin.users.prometheus.password_hash=" + HASH + "\n"
                + "admin.users.oncall.password_hash=" + HASH + "\nadmin.users.oncall.role=admin\n");

        assertThat(admin.users()).extracting(AdminUser::name, AdminUser::role).containsExactly(
                org.assertj.core.groups.Tuple.tuple("ops", AdminRole.ADMIN),
                org.assertj.core.groups.Tuple.tuple("oncall", AdminRole.ADMIN),
                org.assertj.core.groups.Tuple.tuple("prometheus", AdminRole.MONITOR));
        assertThat(admin.anonymousMetrics()).isFalse();
        assertThat(admin.healthUrls()).isEqualTo(AdminConfig.HealthUrls.ALL);
    }

    @Test
    void usersAloneTurnTheAdministrationOnAndTheMetricsMayGoWithoutCredentials() throws Exception {
        AdminConfig admin = admin("admin.users.mon.password_hash=" + HASH + "\nadmin.metrics_anonymous=true\n"
                + "jwd.health_urls=admin\n");

        assertThat(admin.enabled()).isTrue();
        assertThat(admin.user("mon").role()).isEqualTo(AdminRole.MONITOR);
        assertThat(admin.anonymousMetrics()).isTrue();
        assertThat(admin.healthUrls()).isEqualTo(AdminConfig.HealthUrls.ADMIN);
    }

    @Test
    void aUsersProblemsAreNamed() {
        assertThat(problems("admin.users.mon.role=reader\n").problems()).containsExactlyInAnyOrder(
                "admin.users.mon.role = 'reader': expected monitor or admin",
                "admin.users.mon.password_hash is missing: expected pbkdf2-sha256$<iterations 1000..10000000>$"
                        + "<salt base64>$<hash base64>, as bin/jwd hash-password prints it");
        assertThat(problems("admin.user=ops\nadmin.password_hash=" + HASH + "\nadmin.users.ops.password_hash="
                + HASH + "\n").problems()).singleElement().asString()
                .startsWith("admin.users.ops.password_hash = '").endsWith("': expected another name than"
                        + " admin.user's: a user is defined once");
        assertThat(problems("jwd.health_urls=lb\n").problems())
                .containsExactly("jwd.health_urls = 'lb': expected all, admin or off");
    }

    @Test
    void theHealthUrlsAnswerOnTheAdministrationsListenersAlone() throws Exception {
        AdminConfig admin = admin("icm/HTTP/admin_0=PORT=8090\njwd.health_urls=admin\n");

        assertThat(admin.healthOn("127.0.0.1", 8090)).isTrue();
        assertThat(admin.healthOn("127.0.0.1", 8080)).isFalse();
        assertThat(admin("").healthOn("127.0.0.1", 8080)).isTrue();
        assertThat(admin("jwd.health_urls=off\n").healthOn("127.0.0.1", 8080)).isFalse();
        assertThat(admin.entry("/jwd/admin", "127.0.0.1", 8090)).isNotNull();
        assertThat(admin.entry("/jwd/admin", "127.0.0.1", 8080)).isNull();
    }
    @Test
    void theStartsLogLineNamesEachUserWithItsRole() throws Exception {
        AdminConfig admin = admin("admin.user=ops\nadmin.password_hash=" + HASH + "\n"
                + "admin.users.prometheus.password_hash=" + HASH + "\n");

        assertThat(admin.users()).hasToString("[ops (admin), prometheus (monitor)]");
    }

    @Test
    void aUserIsFoundByItsNameAndNoOther() throws Exception {
        AdminConfig admin = admin("admin.user=ops\nadmin.password_hash=" + HASH + "\n"
                + "admin.users.prometheus.password_hash=" + HASH + "\n");

        assertThat(admin.user("prometheus").role()).isEqualTo(AdminRole.MONITOR);
        assertThat(admin.user("ops").role()).isEqualTo(AdminRole.ADMIN);
        assertThat(admin.user("nobody")).isNull();
    }

    @Test
    void refusesAnAdministratorsNameStartingWithAColonOrHoldingASpace() {
        assertThat(problems("admin.user=:ops\nadmin.password_hash=" + HASH + "\n").problems())
                .containsExactly("admin.user = ':ops': expected a user name without ':', spaces or control characters");
        assertThat(problems("admin.user=o ps\nadmin.password_hash=" + HASH + "\n").problems())
                .containsExactly("admin.user = 'o ps': expected a user name without ':', spaces or control characters");
    }

    @Test
    void saysOncePerEntryWhichOfSapsSubParametersItReadsAndDoesNotUse() throws Exception {
        AdminConfig admin = admin("icm/HTTP/admin_0=PORT=8090,DOCROOT=./admin\nicm/HTTP/admin_1=PORT=8091\n");

        assertThat(admin.notUsed()).containsExactly(
                "icm/HTTP/admin_0: DOCROOT=./admin read, not used: jwd's page is part of its WAR");
    }
}
