package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Without admin.user and admin.password_hash the administration interface is off, and jwd says so once. */
@Timeout(90)
class AdminOffIT {
    @Test
    void withoutCredentialsInTheConfigurationTheAdminPathsAre404AndNeverForwarded() {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("server.a.url=%s\nserver.a.type=j2ee\n".formatted(a.url()))) {
            AdminClient admin = new AdminClient(jwd);
            for (String path : List.of("/jwd/admin/", "/jwd/admin", "/jwd/admin/api/status", "/jwd/admin/metrics",
                    "/jwd/admin/api/servers/a/drain")) {
                HttpResponse<String> r = admin.get(path);
                assertThat(r.statusCode()).as(path).isEqualTo(404);
                assertThat(r.headers().firstValue("WWW-Authenticate")).as(path).isEmpty();
            }
            assertThat(admin.through("/irj/x").statusCode()).isEqualTo(200);
            assertThat(a.requestCounts().keySet()).noneMatch(p -> p.startsWith("/jwd"));
            assertThat(jwd.log().stream().filter(l -> l.contains("WARN") && l.contains("administration interface is off")))
                    .hasSize(1);
        }
    }
}
