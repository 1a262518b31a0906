package org.jwd.sessiontable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import org.jwd.config.SessionTableDiskConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single dispatcher's session table that survives a restart ({@code SessionTable.disk_path}): the node's
 * {@link EhcacheSessionTable} serves every request as without it, and the bindings with the time of their last use
 * are written to Ehcache's disk store ({@link DiskStore}, in {@link DiskGenerations}).
 *
 * <ul>
 *   <li><b>While running</b>: each lookup, touch, bind or rebind notes the session's server and the time in
 *       {@code recent} (one entry per session, the latest use). Every {@code SessionTable.disk_flush_interval}
 *       on the shared scheduler a flush writes what was noted since the last one into a new generation.</li>
 *   <li><b>Graceful stop</b> ({@link #close}: SIGTERM, {@code bin/jwd run}, the container's undeploy): a last
 *       flush. <b>A crash</b> loses what was noted since the last flush: at most one flush interval of new
 *       bindings, and of renewed idle times (a binding whose renewal was lost keeps its older last use).</li>
 *   <li><b>At start</b>: every binding on disk is read back with the idle time it had left, counted from its last
 *       use, so the downtime counts as idle time: one whose timeout ran out while jwd was down is gone, and so is
 *       one bound to a server no longer in the configuration (servers that register themselves have not done so
 *       yet at the start: theirs go too, and their sessions are balanced anew, as for any unknown server). A
 *       generation that cannot be read is set aside with a warning, and the table starts empty.</li>
 *   <li><b>A directory a later jwd wrote</b> (a newer format, {@link DiskGenerations#FORMAT}) is neither read nor
 *       written: the table starts empty and stays in memory until the restart, said once and shown as the
 *       persistence's failure; the directory is left as it is for the later jwd.</li>
 * </ul>
 */
public final class PersistentSessionTable implements SessionTable {
    private static final Logger LOG = LoggerFactory.getLogger(PersistentSessionTable.class);

    private final EhcacheSessionTable live;
    private final DiskGenerations generations;
    private final long maxEntries;
    private final LongSupplier clockMillis;
    private final LongSupplier clock;
    private final ScheduledFuture<?> periodicFlush;

    /** The last use of each session since the last flush. */
    private final ConcurrentHashMap<String, ClusterBinding> recent = new ConcurrentHashMap<>();
    private final ReentrantLock flushLock = new ReentrantLock();
    /** the writes into generations; used under flushLock */
    private final DiskFlush disk;
    private volatile long restored;
    private volatile long restoredAtMillis;
    private volatile long dropped;
    private volatile boolean closed;
    /** Why the directory is neither read nor written (a later jwd's format), or {@code null}. */
    private final String refused;

    /**
     * Restores what the directory holds, then flushes on {@code scheduler}.
     *
     * @param live             the node's table; this table closes it
     * @param disk             the directory and the flush interval
     * @param maxEntries       {@code wdisp/HTTP/max_session_tab_entries}: sizes the disk store
     * @param configuredServer which server ids the configuration has: bindings to others are not restored
     * @param clockMillis      epoch milliseconds, or {@code null} for the system clock; tests move it by hand
     * @param scheduler        where the periodic flushes run (shared, not owned), or {@code null} for none (tests
     *                         call {@link #flush()})
     */
    PersistentSessionTable(EhcacheSessionTable live, SessionTableDiskConfig disk, long maxEntries,
                           Predicate<String> configuredServer, LongSupplier clockMillis,
                           ScheduledExecutorService scheduler) {
        this.live = Objects.requireNonNull(live, "live");
        this.maxEntries = maxEntries;
        this.clockMillis = clockMillis;
        this.clock = clockMillis != null ? clockMillis : System::currentTimeMillis;
        this.generations = new DiskGenerations(disk.directory(), clock);
        this.refused = generations.formatRefusal();
        if (refused != null) {
            LOG.warn("Session table on disk: {}; the table starts empty and is kept in memory only until the restart",
                    refused);
        }
        this.disk = new DiskFlush(generations, refused == null ? restore(configuredServer) : null, this::open, clock);
        if (scheduler == null || refused != null) {
            this.periodicFlush = null;
        } else {
            long millis = disk.flushInterval().toMillis();
            this.periodicFlush = scheduler.scheduleWithFixedDelay(this::flushQuietly, millis, millis,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Reads the latest generation back into the node's table; returns the generation the next write starts from. */
    private Path restore(Predicate<String> configuredServer) {
        long started = clock.getAsLong();
        Path latest = null;
        Path copy = null;
        long[] counts = new long[2]; // restored, dropped
        try {
            latest = generations.latestClean();
            // read from a copy: Ehcache wipes a store that was open at a crash, so the original stays until then
            generations.ensureRoom(latest, 0);
            copy = generations.next(latest);
        } catch (IOException | RuntimeException e) {
            // the disk is at fault (full, read-only), not the store: what it holds stays for a later start
            LOG.warn("Session table on disk {}: cannot be prepared for reading ({}); the table starts empty, {}",
                    generations.root(), e.toString(), latest == null ? "nothing is on disk yet"
                            : latest + " is kept and the next write adds to it");
            report(started, counts);
            return latest;
        }
        try {
            try (DiskStore store = open(copy)) {
                store.read((id, binding) -> keep(id, binding, configuredServer, started, counts));
            }
            generations.retire(latest);
            generations.markFormat();
        } catch (IOException | RuntimeException e) {
            setAside(latest, copy, e);
            copy = null;
        }
        report(started, counts);
        return copy;
    }

    private void report(long started, long[] counts) {
        restored = counts[0];
        dropped = counts[1];
        restoredAtMillis = clock.getAsLong();
        LOG.info("Session table on disk {}: {} bindings restored, {} dropped (idle past their timeout or bound to a "
                + "server no longer configured) in {} ms", generations.root(), counts[0], counts[1],
                restoredAtMillis - started);
    }

    private boolean keep(String id, ClusterBinding binding, Predicate<String> configuredServer, long now,
                         long[] counts) {
        long left = live.timeouts().forKey(id).toMillis() - (now - binding.stampMillis());
        if (left <= 0 || !configuredServer.test(binding.serverId())) {
            counts[1]++;
            return false;
        }
        if (live.restore(id, binding.serverId(), Duration.ofMillis(left))) {
            counts[0]++;
        }
        return true;
    }

    private void setAside(Path latest, Path copy, Exception cause) {
        try {
            generations.retire(copy);
            if (latest != null) {
                generations.setAside(latest, String.valueOf(cause));
            } else {
                generations.setAside(generations.root(), String.valueOf(cause));
            }
        } catch (IOException e) {
            LOG.warn("Session table on disk {}: cannot be read ({}) nor set aside ({}); the table starts empty",
                    generations.root(), cause, e.toString());
        }
    }

    private DiskStore open(Path generation) {
        return new DiskStore(generation, maxEntries, live::timeouts, clockMillis);
    }

    /**
     * Writes the uses noted since the last flush into a new generation ({@link DiskFlush}); the bindings of a write
     * that failed are noted again for the next (a newer use noted meanwhile wins).
     */
    void flush() {
        flushLock.lock();
        try {
            if (recent.isEmpty()) {
                return;
            }
            Map<String, ClusterBinding> batch = drain();
            if (!disk.write(batch)) {
                batch.forEach(recent::putIfAbsent);
            }
        } finally {
            flushLock.unlock();
        }
    }

    private Map<String, ClusterBinding> drain() {
        Map<String, ClusterBinding> batch = new HashMap<>();
        for (String id : recent.keySet()) {
            ClusterBinding use = recent.remove(id);
            if (use != null) {
                batch.put(id, use);
            }
        }
        return batch;
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("Session table on disk {}: flush failed", generations.root(), e);
        }
    }

    private void noteUse(String sessionId, String serverId) {
        if (sessionId != null && serverId != null && !closed && refused == null) {
            recent.put(sessionId, new ClusterBinding(serverId, clock.getAsLong()));
        }
    }

    @Override
    public String lookup(String sessionId) {
        String server = live.lookup(sessionId);
        noteUse(sessionId, server);
        return server;
    }

    @Override
    public void touch(String sessionId) {
        live.touch(sessionId);
        noteUse(sessionId, live.peek(sessionId));
    }

    @Override
    public String peek(String sessionId) {
        return live.peek(sessionId);
    }

    @Override
    public java.time.Duration idleLeft(String sessionId) {
        return live.idleLeft(sessionId);
    }

    @Override
    public String bind(String sessionId, String serverId) {
        String server = live.bind(sessionId, serverId);
        if (stored(sessionId, server, serverId)) {
            noteUse(sessionId, server);
        }
        return server;
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        String server = live.rebind(sessionId, expectedServerId, newServerId);
        if (stored(sessionId, server, newServerId)) {
            noteUse(sessionId, server);
        }
        return server;
    }

    /**
     * Whether the table holds the binding a bind answered: a full table answers with the server asked for and
     * stores nothing. Only then (rarely) is the table asked again.
     */
    private boolean stored(String sessionId, String answered, String asked) {
        return !answered.equals(asked) || !live.isFull() || answered.equals(live.peek(sessionId));
    }

    @Override
    public SessionTableStats stats() {
        return live.stats();
    }

    @Override
    public boolean isFull() {
        return live.isFull();
    }

    @Override
    public boolean canChangeTimeout() {
        return true;
    }

    @Override
    public void changeTimeouts(SessionTimeouts timeouts) {
        live.changeTimeouts(timeouts);
    }

    @Override
    public PersistenceStatus persistence() {
        return new PersistenceStatus(generations.root().toString(), restored, restoredAtMillis, dropped,
                disk.lastFlushMillis(), disk.failures(), refused != null ? refused : disk.failure());
    }

    /** The node's table, for the figures only it has (capacity, timeouts, sweeps). */
    public EhcacheSessionTable live() {
        return live;
    }

    /** Writes the bindings a last time, then closes the node's table. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (periodicFlush != null) {
            periodicFlush.cancel(false);
        }
        flush();
        closed = true;
        live.close();
        if (refused != null) {
            return;
        }
        if (disk.failure() == null) {
            LOG.info("Session table on disk {}: written at the stop", generations.root());
        } else {
            LOG.warn("Session table on disk {}: not written at the stop ({}); the next start reads the last good write",
                    generations.root(), disk.failure());
        }
    }

    @Override
    public String toString() {
        return "PersistentSessionTable[" + generations.root() + ", " + live + "]";
    }
}
