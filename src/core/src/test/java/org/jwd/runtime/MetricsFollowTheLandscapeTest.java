package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.jwd.metrics.DispatcherMetrics;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics follow the landscape: a thousand servers that come, take requests and go (registered and removed, or
 * added to the configuration and removed from it) leave exactly the series that were there before them, and an instance
 * gone from the message server's list takes its series with it at the refresh that finds it gone.
 */
class MetricsFollowTheLandscapeTest {
    private static final int SERVERS = 1000;
    private static final String BASE = """
            server.a.url=http://127.0.0.1:9001
            server.a.type=j2ee
            health.interval=1h
            """;

    private Bootstrap boot;
    private Dispatcher dispatcher;

    MetricsFollowTheLandscapeTest() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse(BASE, "test.properties"), null);
        dispatcher = boot.dispatcher();
    }

    @AfterEach
    void close() {
        boot.close();
    }

    @Test
    void aThousandServersRegisteredAndRemovedLeaveTheSeriesAsTheyWere() throws Exception {
        trafficOn("a");
        long before = jwdSeries();

        for (int i = 0; i < SERVERS; i++) {
            dispatcher.register(new ServerConfig("n" + i, URI.create("http://127.0.0.1:9100"), null, ServerType.J2EE,
                    1, Set.of(), "n" + i, "n" + i, null, "/"));
            trafficOn("n" + i);
        }
        long during = jwdSeries();
        for (int i = 0; i < SERVERS; i++) {
            assertThat(dispatcher.deregister("n" + i)).isTrue();
        }

        // each server has some thirty series: those jwd counts as requests pass and those read when scraped
        assertThat(during - before).isGreaterThan(20L * SERVERS);
        assertThat(jwdSeries()).isEqualTo(before);
        assertThat(text()).doesNotContain("server=\"n");
    }

    @Test
    void aThousandServersAddedToTheConfigurationAndRemovedFromItLeaveTheSeriesAsTheyWere() throws Exception {
        trafficOn("a");
        long before = jwdSeries();
        StringBuilder more = new StringBuilder(BASE);
        for (int i = 0; i < SERVERS; i++) {
            more.append("server.c").append(i).append(".url=http://127.0.0.1:").append(10_000 + i)
                    .append("\nserver.c").append(i).append(".type=j2ee\n");
        }

        dispatcher.apply(ConfigReader.parse(more.toString(), "test.properties"));
        for (int i = 0; i < SERVERS; i++) {
            trafficOn("c" + i);
        }
        long during = jwdSeries();
        dispatcher.apply(ConfigReader.parse(BASE, "test.properties"));

        assertThat(during - before).isGreaterThan(20L * SERVERS);
        assertThat(jwdSeries()).isEqualTo(before);
    }

    @Test
    void anInstanceGoneFromTheMessageServersListTakesItsSeriesWithItAtTheNextRefresh(@TempDir Path dir)
            throws Exception {
        String instances = "version 1.2\r\nls0042_ERP_00\r\nHTTP\tls0042\t8000\t\r\n\r\n"
                + "ls0043_ERP_01\r\nHTTP\tls0043\t8001\t\r\n";
        Files.writeString(dir.resolve("logon.txt"), instances);
        boot.close();
        boot = Bootstrap.build(ConfigReader.parse("wdisp/server_info_location = file://" + dir.resolve("logon.txt")
                + "\njwd.discovery_file = " + dir.resolve("kept.txt") + "\nhealth.interval = 1h\n",
                "test.properties"), null);
        dispatcher = boot.dispatcher();
        dispatcher.discovery().refreshNow();
        trafficOn("ls0042_ERP_00");
        trafficOn("ls0043_ERP_01");
        assertThat(text()).contains("server=\"ls0043_ERP_01\"");

        Files.writeString(dir.resolve("logon.txt"), instances.substring(0, instances.indexOf("ls0043_ERP_01")));
        dispatcher.discovery().refreshNow();

        assertThat(dispatcher.state().topology().servers().keySet()).containsExactly("ls0042_ERP_00");
        assertThat(text()).contains("server=\"ls0042_ERP_00\"").doesNotContain("ls0043");
    }

    /** A request answered, one broken off, and the server's times: every series a server's traffic makes. */
    private void trafficOn(String id) {
        DispatcherMetrics metrics = dispatcher.metrics();
        Server server = dispatcher.state().topology().server(id);
        ServerGroup all = dispatcher.state().topology().internalGroup(ServerGroup.ALL);
        metrics.requestCompleted(all, server, 200, 2_000_000);
        metrics.requestCompleted(all, server, 502, 2_000_000);
        metrics.serverAnswered(server, 1_000_000, 2_000_000, System.nanoTime());
        metrics.serverAborted(server);
    }

    /** The series of jwd's own metrics a scrape writes (the JVM's vary with the JVM, not the landscape). */
    private long jwdSeries() throws Exception {
        return text().lines().filter(line -> line.startsWith("jwd_")).count();
    }

    private String text() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        dispatcher.metrics().write(out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
