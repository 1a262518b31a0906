package org.jwd.runtime;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jwd.accesslog.AccessLog;
import org.jwd.config.AdminConfig;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.health.HealthChecker;
import org.jwd.operator.OperatorConfig;
import org.jwd.operator.OperatorStates;
import org.jwd.registry.ServerRegistry;
import org.jwd.tls.ClientTls;
import org.jwd.tls.Reencryption;
import org.jwd.tls.SslEncrypt;
import org.jwd.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: builds every part of the dispatcher for one configuration, in order, starts what runs in
 * the background, and closes it all. The periodic jobs (health checks, URL prefix refreshes, expiry of registered
 * servers, the configuration file's watch, the admin page's request history) run on ONE scheduler owned here:
 * closing it stops them all. Nothing else in jwd builds a part or looks one up: the servlets get theirs from the
 * servlet context, where the webapp's listener ({@code org.jwd.boot.DispatcherLifecycle}) puts them.
 */
public final class Bootstrap implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Bootstrap.class);
    /**
     * The jobs are short (a check is sent asynchronously, an expiry is a map walk), but a URL prefix refresh waits
     * for its server up to its timeout: a second thread keeps the other jobs on time meanwhile.
     */
    private static final int SCHEDULER_THREADS = 2;

    private final ScheduledExecutorService scheduler;
    private final AdminConfig admin;
    private final Dispatcher dispatcher;
    /** {@code null} without a configuration file */
    private final Reloader reloader;
    private final ConfigWatch watch;
    private final Readiness readiness;
    /** jwd as the servers' TLS client: every client factory, and the renewal of its client certificate */
    private final ClientTls clientTls;

    private Bootstrap(ScheduledExecutorService scheduler, AdminConfig admin, Dispatcher dispatcher, ClientTls clientTls,
                      Path file) {
        this.scheduler = scheduler;
        this.admin = admin;
        this.dispatcher = dispatcher;
        this.clientTls = clientTls;
        this.reloader = file == null ? null
                : new Reloader(file, dispatcher, System::currentTimeMillis);
        this.watch = file == null ? null : new ConfigWatch(reloader, dispatcher::config, scheduler);
        this.readiness = new Readiness(dispatcher, System::currentTimeMillis);
    }

    /**
     * Builds the parts for {@code config}; nothing runs before {@link #start}.
     *
     * @param file the configuration file {@code config} was read from, watched and reloaded; {@code null} for none
     * @throws ConfigException when a key the features check themselves is invalid, or the truststore unreadable
     */
    public static Bootstrap build(DispatcherConfig config, Path file) throws ConfigException {
        AdminConfig admin = config.section(AdminConfig.class);
        TlsConfig tls = config.section(TlsConfig.class);
        ClientTls clientTls = clientTls(tls);
        HealthChecker health = healthChecker(config, tls, clientTls);
        // the last check that can fail the start, and the first part that holds a file
        AccessLog accessLog = AccessLog.open(config);
        ScheduledExecutorService scheduler = newScheduler();
        SessionTable sessionTable;
        try {
            sessionTable = SessionTables.create(config, scheduler);
        } catch (RuntimeException e) {
            scheduler.shutdownNow();
            closeAll(List.of(health, accessLog, clientTls));
            throw e;
        }
        OperatorStates operator = null;
        try {
            operator = OperatorStates.open(config.section(OperatorConfig.class), System::currentTimeMillis);
            Dispatcher dispatcher = new Dispatcher(config, new Dispatcher.Parts(tls, accessLog, sessionTable, health,
                    new ServerRegistry(admin.registryExpiry(), System::nanoTime), scheduler, operator));
            watchDiscovery(dispatcher);
            dispatcher.metrics().watchCertificates(clientTls::everyCertificate);
            return new Bootstrap(scheduler, admin, dispatcher, clientTls, file);
        } catch (ConfigException | RuntimeException e) {
            scheduler.shutdownNow();
            closeAll(java.util.Arrays.asList(health, sessionTable, accessLog, operator, clientTls));
            throw e;
        }
    }

    /** @throws ConfigException naming the truststore or the client certificate when they cannot be opened */
    private static ClientTls clientTls(TlsConfig tls) throws ConfigException {
        try {
            return new ClientTls(tls.servers(), Clock.systemUTC());
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(Reencryption.CRED + " = '" + tls.servers().credentials() + "': cannot be read: "
                    + e.getMessage());
        }
    }

    /** The discovery's metrics, read from the discovery in force (a reload may replace it). */
    private static void watchDiscovery(Dispatcher dispatcher) {
        dispatcher.metrics().watchDiscovery(
                () -> dispatcher.discovery().status().stream().collect(java.util.stream.Collectors.toMap(
                        s -> s.system(), s -> s.onKeptView(), (a, b) -> a)),
                () -> dispatcher.discovery().status().stream().collect(java.util.stream.Collectors.toMap(
                        s -> s.system(), s -> s.refreshedAt(), (a, b) -> a)));
    }

    /** @throws ConfigException naming the truststore when the HTTPS checks cannot use it */
    private static HealthChecker healthChecker(DispatcherConfig config, TlsConfig tls, ClientTls clientTls)
            throws ConfigException {
        try {
            return new HealthChecker(List.of(), config.health(),
                    tls.encrypt() == SslEncrypt.NEVER ? null : clientTls.newFactory());
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(TlsConfig.TRUSTSTORE + " = '" + tls.servers().trustStore() + "': cannot be read: "
                    + e);
        }
    }

    /** Daemon threads: a webapp that fails to close must not keep the JVM alive. */
    private static ScheduledExecutorService newScheduler() {
        AtomicInteger count = new AtomicInteger();
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(SCHEDULER_THREADS, r -> {
            Thread t = new Thread(r, "jwd-scheduler-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        // a cancelled job (a server that left, a replaced URL table) must not wait in the queue until its time
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    /**
     * Starts the jobs: the URL mapping table's first load (synchronous, so that the first requests see it) and
     * refreshes, the health checks, the expiry of registered servers and the watch of the configuration file.
     */
    public void start() {
        dispatcher.startUrlPrefixes(scheduler);
        dispatcher.health().start(scheduler);
        dispatcher.operator().startSharing(scheduler, () -> dispatcher.state().topology().servers().values());
        readiness.started(System.currentTimeMillis());
        long every = dispatcher.registry().checkInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::expireRegistrations, every, every, TimeUnit.MILLISECONDS);
        if (watch != null) {
            watch.start();
        }
        clientTls.start(dispatcher.config().sections().find(ConfigReader.WatchSection.class)
                .map(ConfigReader.WatchSection::interval).orElse(Duration.ZERO));
    }

    private void expireRegistrations() {
        try {
            dispatcher.expireRegistrations();
        } catch (RuntimeException e) {
            // a job that throws is never run again: log and stay scheduled
            LOG.warn("jwd: expiring registered servers failed", e);
        }
    }

    public Dispatcher dispatcher() {
        return dispatcher;
    }

    /** The administration's settings ({@code admin.*}). */
    public AdminConfig admin() {
        return admin;
    }

    /** The configuration file's reloader; {@code null} when the dispatcher was not started from a file. */
    public Reloader reloader() {
        return reloader;
    }

    /** The watch of the configuration file; {@code null} with {@link #reloader()}. */
    public ConfigWatch watch() {
        return watch;
    }

    /** Whether this dispatcher should get traffic: {@code /jwd/health/ready}. */
    public Readiness readiness() {
        return readiness;
    }

    /** jwd's TLS towards the servers: the proxy's client factory comes from here, and what jwd presents. */
    public ClientTls clientTls() {
        return clientTls;
    }

    /** The one scheduler of the periodic jobs. */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** Stops every job, then closes the parts: the URL table's loader, health checks, session table, access log. */
    @Override
    public void close() {
        if (watch != null) {
            watch.close();
        }
        // No new runs, but a run under way (the persistent table's flush) ends uninterrupted: an interrupt would fail
        // that write halfway, and the table's own last write at close waits for it.
        scheduler.shutdown();
        readiness.stopping();
        closeAll(List.of(dispatcher, dispatcher.health(), dispatcher.sessionTable(), dispatcher.accessLog(),
                dispatcher.operator(), clientTls));
        scheduler.shutdownNow();
    }

    /** Closes each part even when one before it fails: a part left open holds a file, a cache or threads. */
    private static void closeAll(List<AutoCloseable> parts) {
        for (AutoCloseable part : parts) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                LOG.warn("jwd: closing {} failed", part, e);
            }
        }
    }

    @Override
    public String toString() {
        return "Bootstrap[" + dispatcher + (reloader == null ? "" : ", " + reloader) + "]";
    }
}
