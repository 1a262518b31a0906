package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.ServerConfig;
import org.jwd.routing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Discovery} driven by hand: a fake fetcher answers, the clock moves when the test says, a refresh runs when
 * the test calls it. What it publishes is what the runtime swaps in.
 */
class DiscoveryTest {
    private static final String MS = "http://ms:8101/msgserver/text/logon?version=1.2";
    private static final String ICF = "http://ls0042.example.com:8000";
    private final FakeFetcher fetcher = new FakeFetcher();
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final List<List<String>> published = new ArrayList<>();
    @TempDir
    Path dir;

    private Discovery discovery(Path kept) {
        DiscoveryConfig config = new DiscoveryConfig(List.of(new DiscoveryConfig.Source(null, URI.create(MS),
                "rdisp/mshost, ms/http_port")), Locations.DEFAULT, Duration.ofSeconds(25), Duration.ofSeconds(5),
                List.of(), kept);
        return new Discovery(config, fetcher, clock::get, d -> published.add(d.views().get("-").servers().stream()
                .map(s -> s.id() + "/" + s.capacity() + s.logonGroups()).toList()));
    }

    private void sapAnswers(String list) {
        fetcher.bodies.put(MS, list);
        fetcher.bodies.put(ICF + "/sap/public/icf_info/icr_urlprefix", SapExamples.URL_PREFIXES);
        fetcher.bodies.put(ICF + "/sap/public/icf_info/icr_groups", SapExamples.GROUPS);
    }

    @Test
    void theFirstRefreshPublishesTheServersOfTheListWithTheIcfsGroups() {
        sapAnswers(SapExamples.SERVER_LIST);
        Discovery discovery = discovery(null);

        discovery.refreshNow();

        assertThat(published).containsExactly(List.of("ls0042_ERP_00/8[]", "ls0043_ERP_01/4[CRMGRP]",
                "J2EE6906720/3[]"));
        SystemStatus status = discovery.status().get(0);
        assertThat(status.source()).isEqualTo(MS);
        assertThat(status.icfSource()).isEqualTo(ICF);
        assertThat(status.refreshedAt()).isEqualTo(1_000_000);
        assertThat(status.changes()).extracting(SystemStatus.Change::text).hasSize(3)
                .allSatisfy(c -> assertThat(c).startsWith("added "));
    }

    @Test
    void anAddedAndARemovedInstanceArePublishedAtTheNextRefreshAndNamedAsChanges() {
        sapAnswers(SapExamples.SERVER_LIST);
        Discovery discovery = discovery(null);
        discovery.refreshNow();

        clock.addAndGet(25_000);
        sapAnswers(SapExamples.SERVER_LIST.replace("ls0043_ERP_01\r\nDIAG\tls0043.example.com\t3201\tLB=4\r\n"
                + "HTTP\tls0043.example.com\t8001\t\r\n", "ls0045_ERP_02\r\nDIAG\tls0045\t3202\tLB=6\r\n"
                + "HTTP\tls0045\t8002\t\r\n"));
        discovery.refreshNow();

        assertThat(published).hasSize(2);
        assertThat(published.get(1)).containsExactly("ls0042_ERP_00/8[]", "ls0045_ERP_02/6[]", "J2EE6906720/3[]");
        assertThat(discovery.status().get(0).changes()).extracting(SystemStatus.Change::text)
                .startsWith("logon groups []", "removed ls0043_ERP_01 (ls0043_ERP_01)",
                        "added ls0045_ERP_02 (abap http://ls0045:8002, capacity 6)");
        assertThat(discovery.status().get(0).changes().get(0).atMillis()).isEqualTo(1_025_000);
    }

    @Test
    void anUnchangedListPublishesNothing() {
        sapAnswers(SapExamples.SERVER_LIST);
        Discovery discovery = discovery(null);
        discovery.refreshNow();
        discovery.refreshNow();

        assertThat(published).hasSize(1);
    }

    @Test
    void aFailingMessageServerKeepsTheLastGoodViewWarnsOnceAndSaysSinceWhen() {
        sapAnswers(SapExamples.SERVER_LIST);
        Discovery discovery = discovery(null);
        discovery.refreshNow();
        SystemView before = discovery.views().get("-");

        fetcher.bodies.remove(MS);
        String log;
        try (LogCapture capture = new LogCapture(SystemRefresh.class)) {
            clock.addAndGet(25_000);
            discovery.refreshNow();
            clock.addAndGet(25_000);
            discovery.refreshNow();
            log = capture.text();
        }

        assertThat(discovery.views().get("-")).isSameAs(before);
        assertThat(published).hasSize(1);
        assertThat(log.lines().filter(l -> l.contains("WARN"))).singleElement().asString()
                .contains("message server " + MS, "Connection refused", "keeping the last good view (3 servers");
        SystemStatus status = discovery.status().get(0);
        assertThat(status.failingSince()).isEqualTo(1_025_000);
        assertThat(status.lastError()).contains("Connection refused");
        assertThat(status.onKeptView()).isTrue();
    }

    @Test
    void garbageAnHtmlPageAndAnEmptyListEachKeepTheLastGoodView() {
        sapAnswers(SapExamples.SERVER_LIST);
        Discovery discovery = discovery(null);
        discovery.refreshNow();
        SystemView before = discovery.views().get("-");

        for (String answer : List.of("<html><body>logon</body></html>", "version 1.2\r\n", "\u0000\u0001garbage",
                "version 1.2\r\nls1_ERP_00\r\nHTTP\th\tnotaport\t\r\n")) {
            fetcher.bodies.put(MS, answer);
            discovery.refreshNow();
            assertThat(discovery.views().get("-")).as(answer).isSameAs(before);
            assertThat(discovery.status().get(0).lastError()).as(answer).isNotBlank();
        }
        assertThat(published).hasSize(1);
    }

    @Test
    void anUnreachableIcfServerIsPassedForTheNextOneOfTheList() {
        sapAnswers(SapExamples.SERVER_LIST);
        fetcher.bodies.remove(ICF + "/sap/public/icf_info/icr_urlprefix");
        fetcher.bodies.put("http://ls0043.example.com:8001/sap/public/icf_info/icr_urlprefix", SapExamples.URL_PREFIXES);
        fetcher.bodies.put("http://ls0043.example.com:8001/sap/public/icf_info/icr_groups", SapExamples.GROUPS);
        Discovery discovery = discovery(null);

        discovery.refreshNow();

        assertThat(discovery.status().get(0).icfSource()).isEqualTo("http://ls0043.example.com:8001");
        assertThat(discovery.views().get("-").abapPrefixes()).hasSize(3);
        assertThat(fetcher.asked).containsSubsequence(ICF + "/sap/public/icf_info/icr_urlprefix",
                "http://ls0043.example.com:8001/sap/public/icf_info/icr_urlprefix");
    }

    @Test
    void theKeptViewServesARestartWhileTheMessageServerIsAway() throws IOException {
        Path kept = dir.resolve("discovery-view.txt");
        sapAnswers(SapExamples.SERVER_LIST);
        discovery(kept).refreshNow();
        assertThat(Files.readAllLines(kept).get(0)).isEqualTo("jwd discovery view 1");

        fetcher.bodies.clear();
        published.clear();
        Discovery restarted = discovery(kept);
        restarted.loadKept();
        restarted.refreshNow();

        assertThat(published).containsExactly(List.of("ls0042_ERP_00/8[]", "ls0043_ERP_01/4[CRMGRP]",
                "J2EE6906720/3[]"));
        assertThat(restarted.views().get("-").servers()).extracting(ServerConfig::id).hasSize(3);
        SystemStatus status = restarted.status().get(0);
        assertThat(status.keptSince()).isEqualTo(1_000_000);
        assertThat(status.onKeptView()).isTrue();
        assertThat(status.lastError()).contains("Connection refused");
    }

    @Test
    void aKeptFileOfANewerFormatIsRefusedNamedAndLeftAsItIs() throws IOException {
        Path kept = dir.resolve("discovery-view.txt");
        Files.writeString(kept, "jwd discovery view 2\nsomething new\n");
        sapAnswers(SapExamples.SERVER_LIST);

        Discovery discovery = discovery(kept);
        discovery.loadKept();
        discovery.refreshNow();

        assertThat(discovery.keptError()).isEqualTo(kept + ": discovery view in format 2, written by a later jwd;"
                + " this jwd reads format 1: left as it is, not read; the answers are not kept until it is moved away");
        assertThat(Files.readString(kept)).isEqualTo("jwd discovery view 2\nsomething new\n");
        assertThat(published).hasSize(1);
    }
}
