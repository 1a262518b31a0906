package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.runtime.Bootstrap;
import org.jwd.routing.LogCapture;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.topology.Server;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot reload at the dispatcher's level: a valid change is swapped in whole, an invalid one changes nothing, servers
 * that stay keep their objects, and sessions of removed servers are rebound at their next request.
 */
class ReloaderTest {
    private static final String BASE = """
            server.a.url=http://127.0.0.1:9001
            server.a.type=j2ee
            server.b.url=http://127.0.0.1:9002
            server.b.type=j2ee
            server.c.url=http://127.0.0.1:9003
            server.c.type=j2ee
            SessionTableTimeout=60s
            health.interval=1h
            jwd.config_watch=0
            """;

    @TempDir
    Path dir;
    private Path file;
    private Bootstrap boot;
    private Dispatcher dispatcher;
    private Reloader reloader;
    private ConfigWatch watch;
    /** the watch's, never used: the tests poll by hand */
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    private void start(String properties) throws Exception {
        file = dir.resolve("jwd.properties");
        Files.writeString(file, properties);
        boot = Bootstrap.build(ConfigReader.load(file), null);
        dispatcher = boot.dispatcher();
        reloader = new Reloader(file, dispatcher, clock::get);
        watch = new ConfigWatch(reloader, dispatcher::config, scheduler);
    }

    @AfterEach
    void close() {
        scheduler.shutdownNow();
        if (boot != null) {
            boot.close();
        }
    }

    private Reloader.Result write(String properties) throws Exception {
        Files.writeString(file, properties);
        clock.addAndGet(1000);
        return reloader.reload("api");
    }

    private RoutingDecision route(String jsessionid) {
        return dispatcher.state().router().route(RoutingRequest.of("GET", "/irj/x", null,
                jsessionid == null ? List.of() : List.of("JSESSIONID=" + jsessionid), false));
    }

    private String metrics() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        dispatcher.metrics().write(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aValidChangeIsSwappedInWholeAndServersThatStayKeepTheirObjects() throws Exception {
        start(BASE);
        Server a = dispatcher.state().topology().server("a");
        Server b = dispatcher.state().topology().server("b");
        var table = dispatcher.sessionTable();
        RoutingDecision served = route(null);
        Server first = served.server();
        served.finish(false);
        dispatcher.operator().act(b, Server.AdminState.DRAINED, "ops from 127.0.0.1");
        DispatcherState before = dispatcher.state();

        Reloader.Result result = write(BASE.replace("server.c.url=http://127.0.0.1:9003\nserver.c.type=j2ee\n", "")
                + """
                server.b.capacity=3
                server.d.url=http://127.0.0.1:9004
                server.d.type=j2ee
                jwd.debug_headers=true
                wdisp/load_balancing_strategy=simple_weighted_round_robin
                health.rise=5
                jwd.request_timeout=7s
                """);

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.errors()).isEmpty();
        assertThat(result.pending()).isEmpty();
        DispatcherState after = dispatcher.state();
        assertThat(after).isNotSameAs(before);
        assertThat(after.config()).isSameAs(dispatcher.config());
        assertThat(after.config().forwarding().debugHeaders()).isTrue();
        assertThat(after.config().loadBalancingStrategy()).isEqualTo("simple_weighted_round_robin");
        assertThat(after.config().forwarding().requestTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(after.topology().servers().keySet()).containsExactly("a", "b", "d");
        assertThat(after.topology().server("a")).isSameAs(a);
        // b's description changed: a new object with the new capacity, keeping the operator's drain
        Server newB = after.topology().server("b");
        assertThat(newB).isNotSameAs(b);
        assertThat(newB.capacity()).isEqualTo(3);
        assertThat(newB.adminState()).isEqualTo(Server.AdminState.DRAINED);
        if (first == a) {
            assertThat(a.served()).isEqualTo(1);
        }
        assertThat(after.router().balancer(after.topology().internalGroup("!J2EE")).snapshot().strategy())
                .isEqualTo("simple_weighted_round_robin");
        assertThat(dispatcher.health().servers()).extracting(Server::id).containsExactly("a", "b", "d");
        assertThat(dispatcher.health().config().rise()).isEqualTo(5);
        assertThat(dispatcher.sessionTable()).isSameAs(table);
        assertThat(reloader.loadedAt()).isEqualTo(java.time.Instant.ofEpochMilli(clock.get()));
        assertThat(metrics()).contains("jwd_config_reloads_total{outcome=\"applied\"} 1.0")
                .contains("jwd_config_reloads_total{outcome=\"rejected\"} 0.0")
                .contains("jwd_config_last_reload_timestamp_seconds 1.700000001E9");
    }

    @Test
    void aReloadThatAddsTheIcfEntryOfTheRootIsRejectedNamingTheKeyAndTheValue() throws Exception {
        start(BASE + "icf.url_prefixes=/sap/bc/\n");
        DispatcherState before = dispatcher.state();

        Reloader.Result result = write(BASE + "icf.url_prefixes=/sap/bc/, /\n");

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.REJECTED);
        assertThat(result.errors()).containsExactly("icf.url_prefixes = '/sap/bc/,/': URL prefix '/' refused: it "
                + "covers every URL, so every request would go to the ABAP servers");
        assertThat(dispatcher.state()).isSameAs(before);
        assertThat(dispatcher.state().urlPrefixes().current().get().isAbap("/irj/portal")).isFalse();
    }

    @Test
    void theWarningOfALogonGroupWithoutExtRfcIsLoggedOnReloadToo() throws Exception {
        // ext_rfc only changes where HTTP requests go under the quality opt-in: then all go to the favorite
        String group = "logon_group.PORTAL.url_prefixes=/irj\nlogon_group.PORTAL.ext_rfc=false\n"
                + "logon_group.PORTAL.http_balancing=quality\n";
        start(BASE + group);

        Reloader.Result result;
        String logged;
        try (LogCapture log = new LogCapture(Dispatcher.class)) {
            result = write(BASE + group + "server.a.capacity=2\n");
            logged = log.text();
        }

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(logged).contains("WARN", "logon group PORTAL has ext_rfc=false and http_balancing=quality: every "
                + "request goes to its favorite server");
    }

    @Test
    void anInvalidChangeIsRejectedWholeAndTheRunningConfigurationStays() throws Exception {
        start(BASE);
        DispatcherState before = dispatcher.state();

        Reloader.Result result = write(BASE + """
                server.d.url=http://127.0.0.1:9004
                server.d.type=j2ee
                server.b.capacity=zero
                jwd.no_such_key=1
                """);

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.REJECTED);
        assertThat(result.errors()).hasSize(2);
        assertThat(result.errors()).anySatisfy(e -> assertThat(e)
                .startsWith(file + ":12: server.b.capacity = 'zero': expected a positive integer"));
        assertThat(result.errors()).anySatisfy(e -> assertThat(e).startsWith(file + ":13: jwd.no_such_key = '1'"));
        assertThat(dispatcher.state()).isSameAs(before);
        assertThat(reloader.last()).isSameAs(result);
        assertThat(metrics()).contains("jwd_config_reloads_total{outcome=\"rejected\"} 1.0")
                .contains("jwd_config_reloads_total{outcome=\"applied\"} 0.0");

        // the file put right again: what is in force already, nothing is swapped
        Reloader.Result again = write(BASE);
        assertThat(again.outcome()).isEqualTo(Reloader.Outcome.UNCHANGED);
        assertThat(dispatcher.state()).isSameAs(before);
    }

    @Test
    void aCheckOfTheFeaturesKeysRejectsTooAWatchIntervalThatIsNoDuration() throws Exception {
        start(BASE);
        DispatcherState before = dispatcher.state();

        Reloader.Result result = write(BASE.replace("jwd.config_watch=0", "jwd.config_watch=often"));

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.REJECTED);
        assertThat(result.errors()).containsExactly(file + ":9: jwd.config_watch = 'often': expected how often the "
                + "configuration file is checked for changes: a number with a unit (500ms, 30s, 10m, "
                + "1h); 0 turns the watch off");
        assertThat(dispatcher.state()).isSameAs(before);
    }

    @Test
    void sessionsOfARemovedServerAreReboundOnceAtTheirNextRequestAndTheOthersStay() throws Exception {
        start(BASE);
        dispatcher.sessionTable().bind("s-on-c", "c");
        dispatcher.sessionTable().bind("s-on-a", "a");
        RoutingDecision inFlight = route("s-on-c");
        assertThat(inFlight.server().id()).isEqualTo("c");
        Server c = inFlight.server();

        write(BASE.replace("server.c.url=http://127.0.0.1:9003\nserver.c.type=j2ee\n", ""));

        // the request on its way keeps its decision and its Server, which counts its end
        inFlight.finish(false);
        assertThat(c.inFlight()).isZero();
        assertThat(c.served()).isEqualTo(1);

        RoutingDecision rebound = route("s-on-c");
        assertThat(rebound.reason()).isEqualTo("session table rebind from c");
        String now = rebound.server().id();
        assertThat(now).isIn("a", "b");
        assertThat(dispatcher.sessionTable().lookup("s-on-c")).isEqualTo(now);
        rebound.finish(false);
        for (int i = 0; i < 5; i++) {
            RoutingDecision next = route("s-on-c");
            assertThat(next.server().id()).isEqualTo(now);
            assertThat(next.reason()).isEqualTo("session table");
            next.finish(false);
            RoutingDecision other = route("s-on-a");
            assertThat(other.server().id()).isEqualTo("a");
            assertThat(other.reason()).isEqualTo("session table");
            other.finish(false);
        }
        assertThat(dispatcher.sessionTable().stats().rebindings()).isEqualTo(1);
    }

    @Test
    void theTemporaryTableAndSapsTimeoutsSwitchLiveAndKeepEveryBinding() throws Exception {
        start(BASE);
        var table = dispatcher.sessionTable();
        table.bind("s1", "b");

        Reloader.Result result = write(BASE.replace("SessionTableTimeout=60s", "SessionTableTimeout=0")
                + "wdisp/HTTP/context_timeout=2h\n");

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.pending()).isEmpty();
        assertThat(dispatcher.config().sessions().temporaryTableEnabled()).isFalse();
        assertThat(dispatcher.sessionTable()).isSameAs(table);
        assertThat(((org.jwd.sessiontable.EhcacheSessionTable) table).timeouts())
                .isEqualTo(org.jwd.sessiontable.SessionTimeouts.both(Duration.ofHours(2)));
        assertThat(table.lookup("s1")).isEqualTo("b");
    }

    @Test
    void keysThatNeedARestartKeepTheirRunningValueWhileTheRestIsApplied() throws Exception {
        start(BASE);
        var table = dispatcher.sessionTable();

        // every part of the session table off: removing the table waits for a restart
        Reloader.Result result = write(BASE.replace("SessionTableTimeout=60s", "SessionTableTimeout=0")
                + "wdisp/HTTP/esid_support=false\nwdisp/HTTP/jsessionid_tab_support=false\n"
                + "jwd.debug_headers=true\njwd.connect_timeout=9s\n");

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.pending()).containsExactly(
                new Reloader.Pending("SessionTableTimeout", "60s", "0"),
                new Reloader.Pending("jwd.connect_timeout", null, "9s"),
                new Reloader.Pending("wdisp/HTTP/esid_support", null, "false"),
                new Reloader.Pending("wdisp/HTTP/jsessionid_tab_support", null, "false"));
        assertThat(dispatcher.config().forwarding().debugHeaders()).isTrue();
        assertThat(dispatcher.config().sessions().sessionTableTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(dispatcher.config().properties()).containsEntry("SessionTableTimeout", "60s")
                .doesNotContainKey("jwd.connect_timeout");
        assertThat(dispatcher.config().forwarding().connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(dispatcher.sessionTable()).isSameAs(table);
    }

    @Test
    void theWatchReadsAChangeOnceItHasStayedTheSameForARound() throws Exception {
        start(BASE);
        DispatcherState before = dispatcher.state();
        assertThat(watch.poll()).isNull();

        Files.writeString(file, BASE + "server.d.url=http://127.0.0.1:9004\n");
        // still being written, perhaps: not read yet
        assertThat(watch.poll()).isNull();
        Files.writeString(file, BASE + "server.d.url=http://127.0.0.1:9004\nserver.d.type=j2ee\n");
        assertThat(watch.poll()).isNull();
        assertThat(dispatcher.state()).isSameAs(before);

        Reloader.Result result = watch.poll();
        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.trigger()).isEqualTo("file change");
        assertThat(dispatcher.state().topology().servers().keySet()).containsExactly("a", "b", "c", "d");
        // read once: nothing more until the file changes again
        assertThat(watch.poll()).isNull();
        assertThat(metrics()).contains("jwd_config_reloads_total{outcome=\"applied\"} 1.0");
    }

    @Test
    void theWatchFollowsAFileReplacedByARename() throws Exception {
        start(BASE);
        Path written = dir.resolve("jwd.properties.tmp");
        Files.writeString(written, BASE + "jwd.debug_headers=true\n");
        Files.move(written, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);

        assertThat(watch.poll()).isNull();
        assertThat(watch.poll().outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(dispatcher.config().forwarding().debugHeaders()).isTrue();
    }

    @Test
    void theWatchFollowsASymbolicLinkSwappedToANewTargetAsAKubernetesConfigMapUpdateDoes() throws Exception {
        // A ConfigMap volume: jwd.properties -> ..data/jwd.properties, ..data -> ..2026_v1; an update writes
        // ..2026_v2, swaps ..data by a rename and deletes ..2026_v1.
        Path v1 = Files.createDirectory(dir.resolve("..2026_v1"));
        Files.writeString(v1.resolve("jwd.properties"), BASE);
        Files.createSymbolicLink(dir.resolve("..data"), v1.getFileName());
        file = Files.createSymbolicLink(dir.resolve("jwd.properties"), Path.of("..data", "jwd.properties"));
        boot = Bootstrap.build(ConfigReader.load(file), null);
        dispatcher = boot.dispatcher();
        reloader = new Reloader(file, dispatcher, clock::get);
        watch = new ConfigWatch(reloader, dispatcher::config, scheduler);

        Path v2 = Files.createDirectory(dir.resolve("..2026_v2"));
        Files.writeString(v2.resolve("jwd.properties"), BASE + "jwd.debug_headers=true\n");
        Path link = Files.createSymbolicLink(dir.resolve("..data_tmp"), v2.getFileName());
        Files.move(link, dir.resolve("..data"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Files.delete(v1.resolve("jwd.properties"));
        Files.delete(v1);

        assertThat(watch.poll()).isNull();
        assertThat(watch.poll().outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(dispatcher.config().forwarding().debugHeaders()).isTrue();
    }

    @Test
    void aNewSessionTableTimeoutAppliesToTheRunningTableWhoseBindingsStay() throws Exception {
        start(BASE);
        var table = dispatcher.sessionTable();
        table.bind("s1", "b");

        Reloader.Result result = write(BASE.replace("SessionTableTimeout=60s", "SessionTableTimeout=10m"));

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.pending()).isEmpty();
        assertThat(dispatcher.config().sessions().sessionTableTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(dispatcher.sessionTable()).isSameAs(table);
        assertThat(((org.jwd.sessiontable.EhcacheSessionTable) table).timeouts().temporary()).isEqualTo(Duration.ofMinutes(10));
        assertThat(table.lookup("s1")).isEqualTo("b");
    }

    @Test
    void aWatchIntervalThatIsNoDurationFailsTheStart() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Bootstrap.build(
                        ConfigReader.parse(BASE.replace("jwd.config_watch=0", "jwd.config_watch=-1s"),
                                "x.properties"), null))
                .isInstanceOf(org.jwd.config.ConfigException.class)
                .hasMessageContaining("jwd.config_watch = '-1s': expected how often the configuration file is checked");
    }

    @Test
    void newLimitsApplyAndAServerWhoseLimitStaysKeepsItsSlots() throws Exception {
        start(BASE + "server.a.max_connections=2\nserver.b.max_connections=3\n");
        var slotsOfA = dispatcher.state().slots().of("a");
        var slotsOfB = dispatcher.state().slots().of("b");
        slotsOfB.acquire(null);

        Reloader.Result result = write(BASE + "server.a.max_connections=2\nserver.b.max_connections=5\n"
                + "server.b.max_queue=1\nicm/HTTP/max_request_size_KB=10\njwd.queue_timeout=3s\n");

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(dispatcher.state().slots().of("a")).as("an unchanged limit").isSameAs(slotsOfA);
        var newSlotsOfB = dispatcher.state().slots().of("b");
        assertThat(newSlotsOfB).isNotSameAs(slotsOfB);
        assertThat(newSlotsOfB.maxConnections()).isEqualTo(5);
        assertThat(newSlotsOfB.maxQueue()).isEqualTo(1);
        assertThat(slotsOfB.active()).as("the request under the old limit still holds its slot there").isEqualTo(1);
        assertThat(dispatcher.state().slots().of("c").isLimited()).isFalse();
        assertThat(dispatcher.state().limits().maxRequestBytes()).isEqualTo(10 * 1024);
        assertThat(dispatcher.state().limits().queueTimeout()).isEqualTo(Duration.ofSeconds(3));

        write(BASE);
        assertThat(dispatcher.state().slots().of("a").isLimited()).as("a limit removed").isFalse();
    }

    private org.jwd.modification.Modification modify(String path) throws Exception {
        return dispatcher.state().modifications().apply(new org.jwd.modification.RequestView("GET", path, null,
                org.jwd.routing.PathNormalizer.normalize(path), false, "10.0.0.7", 1, "127.0.0.1", 8080,
                name -> null, () -> "http:8080"));
    }

    @Test
    void aChangedPermissionFileOfSapsAuthenticationHandlerIsReloaded() throws Exception {
        Path perm = dir.resolve("perm.txt");
        Files.writeString(perm, "P /* * * *\n");
        start(BASE + "icm/HTTP/auth_0=PREFIX=/, PERMFILE=perm.txt\n");
        assertThat(reloader.watched()).contains(file, perm);

        Files.writeString(perm, "D /sap/bc/* * * *\n");
        Reloader.Result changed = reloader.reload("file change");

        assertThat(changed.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(dispatcher.state().router().route(org.jwd.routing.RoutingRequest.of("GET", "/sap/bc/x", null,
                java.util.List.of(), false)).errorStatus()).isEqualTo(403);
    }

    @Test
    void aChangedActionFileIsReloadedAndABrokenOneKeepsTheRulesInForceWithItsErrorForThePage() throws Exception {
        Path actions = dir.resolve("actions.txt");
        Files.writeString(actions, "RegRewriteUrl ^/old/(.*) /new/$1\n");
        start(BASE + "icm/HTTP/mod_0=PREFIX=/, FILE=actions.txt\n");
        assertThat(reloader.watched()).contains(file, actions);
        assertThat(modify("/old/x").rawPath()).isEqualTo("/new/x");

        Files.writeString(actions, "RegRewriteUrl ^/old/(.*) /newer/$1\n");
        Reloader.Result changed = reloader.reload("file change");

        assertThat(changed.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(modify("/old/x").rawPath()).isEqualTo("/newer/x");

        Files.writeString(actions, "RegRewriteUrl ^/old/(.*) /newest/$1 [restart]\n");
        Reloader.Result broken = reloader.reload("file change");

        assertThat(broken.outcome()).isEqualTo(Reloader.Outcome.REJECTED);
        assertThat(broken.errors()).containsExactly("actions.txt:1: 'RegRewriteUrl ^/old/(.*) /newest/$1 [restart]':"
                + " [restart] is not supported by jwd: write the rules in the order they are to run (SAP no longer"
                + " recommends compound and skip; restart would run the file again)");
        assertThat(modify("/old/x").rawPath()).as("the rules in force stay").isEqualTo("/newer/x");
    }
}
