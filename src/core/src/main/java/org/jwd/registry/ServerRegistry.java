package org.jwd.registry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import org.jwd.config.ServerConfig;

/**
 * The message server's role: the servers that registered themselves, and when each last reported. A server
 * reports with its whole description (url, type, capacity, logon groups) and repeats it as a heartbeat; one that
 * has not reported for {@code expiry} is removed by {@link #expire()}. Servers from the configuration file are
 * not here: they never expire. With {@code wdisp/system_<xx>} entries a server registers into one system, named by
 * its SID: the system is part of what it reports, so a server that reports another system has changed.
 *
 * <p>All methods are synchronized (guarded by this): registrations are rare, a few per server and minute.
 * Time comes from the injected clock, so tests move it by hand.
 */
public final class ServerRegistry {
    /** What a report did: whether the set of servers, and so the topology, changed. */
    public enum Outcome {
        /** a server that was not registered: the topology changes */
        REGISTERED,
        /** a registered server reported a different description: the topology changes */
        CHANGED,
        /** a heartbeat: nothing changes but the time of the last report */
        RENEWED;

        public boolean changesTopology() {
            return this != RENEWED;
        }
    }

    /**
     * A registered server and the nano time of its last report.
     *
     * @param system the SID of the system it joined, or {@code null}: the one implicit system (no
     *               {@code wdisp/system_<xx>} entries)
     */
    public record Registration(ServerConfig config, String system, long registeredAt, long lastReport) {
    }

    private final Duration expiry;
    private final long expiryNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Registration> registrations = new TreeMap<>(); // guarded by this

    public ServerRegistry(Duration expiry, LongSupplier nanoTime) {
        this.expiry = expiry;
        this.expiryNanos = saturatedNanos(expiry);
        this.nanoTime = nanoTime;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }

    /** A server of the one implicit system reports itself (first registration or heartbeat). */
    public synchronized Outcome report(ServerConfig config) {
        return report(config, null);
    }

    /**
     * A server reports itself (first registration or heartbeat) as a server of {@code system}.
     *
     * @param system the SID of its system, or {@code null} for the implicit one
     */
    public synchronized Outcome report(ServerConfig config, String system) {
        long now = nanoTime.getAsLong();
        Registration before = registrations.get(config.id());
        if (before == null) {
            registrations.put(config.id(), new Registration(config, system, now, now));
            return Outcome.REGISTERED;
        }
        registrations.put(config.id(), new Registration(config, system, before.registeredAt(), now));
        return before.config().equals(config) && Objects.equals(before.system(), system) ? Outcome.RENEWED
                : Outcome.CHANGED;
    }

    /** Removes a registered server at once (it deregistered); {@code false} when it was not registered. */
    public synchronized boolean remove(String id) {
        return registrations.remove(id) != null;
    }

    /** Removes the servers that have not reported within the expiry; returns their ids. */
    public synchronized List<String> expire() {
        long now = nanoTime.getAsLong();
        List<String> expired = new ArrayList<>();
        for (Iterator<Registration> it = registrations.values().iterator(); it.hasNext(); ) {
            Registration r = it.next();
            if (now - r.lastReport() >= expiryNanos) {
                expired.add(r.config().id());
                it.remove();
            }
        }
        return expired;
    }

    /** The registered servers, by id. */
    public synchronized List<ServerConfig> servers() {
        return registrations.values().stream().map(Registration::config)
                .sorted(Comparator.comparing(ServerConfig::id)).toList();
    }

    /** The registrations, by server id: each server with its system. */
    public synchronized List<Registration> registrations() {
        return List.copyOf(registrations.values());
    }

    /** The registration of {@code id}, or {@code null}. */
    public synchronized Registration registration(String id) {
        return registrations.get(id);
    }

    /** How long until {@code id} expires unless it reports again; {@code null} when it is not registered. */
    public synchronized Duration expiresIn(String id) {
        Registration r = registrations.get(id);
        if (r == null) {
            return null;
        }
        long left = r.lastReport() + expiryNanos - nanoTime.getAsLong();
        return Duration.ofNanos(Math.max(0, left));
    }

    public Duration expiry() {
        return expiry;
    }

    /**
     * How often {@link #expire} should run: a tenth of the expiry, between 50 ms and 1 s, so that a server that
     * stopped reporting leaves soon after its expiry without the check costing anything.
     */
    public Duration checkInterval() {
        long tenth = expiry.compareTo(Duration.ofSeconds(10)) >= 0 ? 1000 : expiry.toMillis() / 10;
        return Duration.ofMillis(Math.max(50, Math.min(1000, tenth)));
    }

    @Override
    public synchronized String toString() {
        return "ServerRegistry" + registrations.keySet() + " (expiry " + expiry + ")";
    }
}
