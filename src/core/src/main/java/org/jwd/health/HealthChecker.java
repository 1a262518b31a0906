package org.jwd.health;

import java.net.ConnectException;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.jwd.config.HealthConfig;
import org.jwd.topology.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices failed servers by itself. Active: each server's {@code health_path} is requested every interval;
 * {@code fall} failures in a row mark it down, {@code rise} good answers (a status the server's
 * {@code health_status} expects, 2xx or 3xx by default) bring it back. Each setting is the server's own
 * ({@code server.<id>.health_*}) or else the {@code health.*} default in force. A server's first check is sent as
 * soon as it is tracked, so that readiness knows within one round whether a server answers. Passive: requests that
 * cannot reach a server count as failures too, and a refused connection marks it down at once (nothing
 * listens there: waiting for more evidence would only fail more requests).
 *
 * <p><b>Two ports.</b> When jwd forwards over TLS ({@code wdisp/ssl_encrypt} 1 or 2), an HTTPS-enabled server is
 * checked on its {@code url} and on its {@code https_url}, each with its own counts: a failing HTTPS port takes it
 * out of the S groups ({@code !J2EES}, {@code !DIAGS}, ...) while its plain port still serves, and the other way
 * round. The HTTPS check speaks TLS as the forwarding does (same truststore, same host name rule): a port whose
 * certificate the dispatcher would refuse cannot serve. Without forwarding over TLS no request uses an HTTPS
 * port, and none is checked.
 *
 * <p>The set of servers may change while it runs ({@link #track}): servers that registered themselves are
 * checked from then on, removed ones no more.
 */
public final class HealthChecker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HealthChecker.class);

    /** Replaced by {@link #reconfigure}; written under this, read by the checks without a lock. */
    private volatile HealthConfig config;
    /** The servers checked; guarded by this. */
    private List<Server> servers;
    /** Each checked server's schedule, by identity: a server replaced by a new object is a new server; guarded by this. */
    private final Map<Server, ScheduledFuture<?>> schedules = new IdentityHashMap<>();
    private boolean started; // guarded by this
    private final HttpClient client;
    /** Whether HTTPS ports are checked: only when requests are forwarded over TLS. */
    private final boolean checksHttps;
    /** The shared scheduler the checks run on, from {@link #start}; guarded by this. */
    private ScheduledExecutorService scheduler;
    /** How long after a server is tracked its first check is sent: at once, but for tests that send their own. */
    private final long firstCheckDelayMillis;

    /**
     * @param tls how the HTTPS checks speak TLS: the forwarding's own client settings towards the servers; {@code null}
     *            when no request is forwarded over TLS ({@code wdisp/ssl_encrypt=0}): HTTPS ports are not checked
     */
    public HealthChecker(Collection<Server> servers, HealthConfig config, SslContextFactory.Client tls) {
        this(servers, config, tls, java.time.Duration.ZERO);
    }

    /** @param firstCheckDelay how long after a server is tracked its first check is sent */
    HealthChecker(Collection<Server> servers, HealthConfig config, SslContextFactory.Client tls,
                  java.time.Duration firstCheckDelay) {
        this.firstCheckDelayMillis = firstCheckDelay.toMillis();
        this.servers = List.copyOf(servers);
        this.config = config;
        this.checksHttps = tls != null;
        ClientConnector connector = new ClientConnector();
        if (tls != null) {
            connector.setSslContextFactory(tls);
        }
        this.client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setFollowRedirects(false);
        client.setConnectTimeout(config.timeout().toMillis());
        client.setName("jwd-health");
    }

    /** Starts the checks as jobs of {@code scheduler}, which outlives this checker ({@link #close} cancels them). */
    public synchronized void start(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the health check client", e);
        }
        started = true;
        reschedule();
        LOG.info("jwd: {} for {} servers", config, servers.size());
    }

    /** From now on, checks exactly these servers: new ones are scheduled, those no longer here stop. */
    public synchronized void track(Collection<Server> servers) {
        this.servers = List.copyOf(servers);
        if (started) {
            reschedule();
        }
    }

    /**
     * From now on, checks with these defaults (a reloaded configuration): rise, fall, the status and the timeout
     * apply to the next check; a new interval reschedules every server's checks. A server's state and counts stay.
     */
    public synchronized void reconfigure(HealthConfig next) {
        HealthConfig before = config;
        if (before.equals(next)) {
            return;
        }
        config = next;
        client.setConnectTimeout(next.timeout().toMillis());
        if (!before.interval().equals(next.interval())) {
            schedules.values().forEach(f -> f.cancel(false));
            schedules.clear();
            if (started) {
                reschedule();
            }
        }
        LOG.info("jwd: health checks now {}", next);
    }

    /** The settings in force. */
    public HealthConfig config() {
        return config;
    }

    /** The settings of {@code server}'s checks: its own, each missing one the default in force. */
    public HealthConfig settings(Server server) {
        return server.config().healthCheck().resolve(config);
    }

    /** The servers checked now. */
    public synchronized List<Server> servers() {
        return servers;
    }

    private void reschedule() { // guarded by this
        Map<Server, Boolean> wanted = new IdentityHashMap<>();
        servers.forEach(s -> wanted.put(s, Boolean.TRUE));
        schedules.entrySet().removeIf(e -> {
            if (wanted.containsKey(e.getKey())) {
                return false;
            }
            e.getValue().cancel(false);
            return true;
        });
        for (Server server : servers) {
            long interval = settings(server).interval().toMillis();
            schedules.computeIfAbsent(server, s -> scheduler.scheduleWithFixedDelay(() -> check(s),
                    firstCheckDelayMillis, interval, TimeUnit.MILLISECONDS));
        }
    }

    /**
     * Requests the server's health path on each of its ports that requests use; the answers arrive asynchronously,
     * no thread waits for them.
     */
    void check(Server server) {
        if (server.hasPort(false)) {
            check(server, false);
        }
        if (checksHttps && server.hasPort(true)) {
            check(server, true);
        }
    }

    private void check(Server server, boolean secure) {
        String url = (secure ? server.config().httpsUrl() : server.config().url()) + server.config().healthPath();
        try {
            client.newRequest(url).timeout(settings(server).timeout().toMillis(), TimeUnit.MILLISECONDS)
                    .send(result -> record(server, secure, url, result));
        } catch (RuntimeException e) {
            // A task that throws is never run again: this server would silently go unchecked.
            LOG.debug("health check of {} could not be sent", server.id(), e);
        }
    }

    private void record(Server server, boolean secure, String url, Result result) {
        HealthConfig settings = settings(server);
        if (result.isSucceeded() && settings.status().matches(result.getResponse().getStatus())) {
            if (server.checkPassed(secure, settings.rise(), "GET " + url + ": " + result.getResponse().getStatus())) {
                LOG.info("jwd: server {} is up again{} ({} good health checks)", server.id(), portName(server, secure),
                        settings.rise());
            }
            return;
        }
        String why = result.isSucceeded() ? "status " + result.getResponse().getStatus() + ", expected "
                + settings.status() : String.valueOf(result.getFailure());
        if (server.checkFailed(secure, settings.fall(), "GET " + url + ": " + why)) {
            LOG.warn("jwd: server {} is down{}: {} failed health checks, the last: {}", server.id(),
                    portName(server, secure), settings.fall(), why);
        }
    }

    /** A request forwarded to {@code server}'s HTTPS port ({@code secure}) or plain port could not reach it. */
    public void requestFailed(Server server, boolean secure, Throwable failure) {
        boolean refused = isRefused(failure);
        int fall = refused ? 1 : settings(server).fall();
        if (server.recordFailure(secure, fall, "request failed: " + failure)) {
            LOG.warn("jwd: server {} is down{}: {}", server.id(), portName(server, secure),
                    refused ? "connection refused" : failure.toString());
        }
    }

    /** Which port a log line is about, when the server has two: the HTTPS one leaves the S groups only. */
    private static String portName(Server server, boolean secure) {
        if (!server.hasPort(!secure)) {
            return "";
        }
        return secure ? " for HTTPS (" + server.config().httpsUrl() + ", the S groups)"
                : " for plain HTTP (" + server.config().url() + ")";
    }

    public static boolean isRefused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        synchronized (this) {
            started = false;
            schedules.values().forEach(f -> f.cancel(false));
            schedules.clear();
        }
        try {
            client.stop();
        } catch (Exception e) {
            LOG.debug("stopping the health check client", e);
        }
    }
}
