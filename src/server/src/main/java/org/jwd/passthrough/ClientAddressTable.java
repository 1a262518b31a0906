package org.jwd.passthrough;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.LongSupplier;

/**
 * Which server each client network was sent to last: the stickiness of end-to-end TLS, where no cookie can be
 * read. An entry lives {@code wdisp/HTTPS/context_timeout} after the last connection of its client network;
 * beyond {@code wdisp/HTTPS/max_client_ip_entries} the least recently seen network is forgotten (it is
 * balanced anew on its next connection, as after a timeout).
 *
 * <p>Entries are kept in the order they were last seen, so the expired ones are always at the head and are
 * dropped there, a few at each binding: no sweeper thread, no scan. One lock: a lookup is a hash lookup and a
 * relink, far cheaper than the TCP connect that follows.
 *
 * <pre>
 * timeout 60 s, at most 2 entries
 * t=0  bind A->s1      [A]
 * t=10 bind B->s2      [A B]
 * t=20 lookup A = s1   [B A]      (A seen again)
 * t=30 bind C->s1      [A C]      (B, the least recently seen, forgotten: at most 2)
 * t=85 lookup C = s1   [A C]      (C seen again)
 * t=95 lookup A = null [C]        (last seen at 20: expired at 80)
 * </pre>
 */
final class ClientAddressTable {
    private final long timeoutNanos;
    private final int maxEntries;
    private final LongSupplier nanoTime;
    /** in access order: the head is the least recently seen */
    private final LinkedHashMap<Object, Entry> entries = new LinkedHashMap<>(64, 0.75f, true); // guarded by this
    private long forgotten; // guarded by this

    private static final class Entry {
        final String serverId;
        long lastSeen;

        Entry(String serverId, long lastSeen) {
            this.serverId = serverId;
            this.lastSeen = lastSeen;
        }
    }

    ClientAddressTable(long timeoutNanos, int maxEntries, LongSupplier nanoTime) {
        this.timeoutNanos = timeoutNanos;
        this.maxEntries = maxEntries;
        this.nanoTime = nanoTime;
    }

    /** The server this client network goes to, or {@code null}; a hit counts as seeing the client again. */
    synchronized String lookup(Object client) {
        Entry e = entries.get(client);
        if (e == null) {
            return null;
        }
        long now = nanoTime.getAsLong();
        if (now - e.lastSeen >= timeoutNanos) {
            entries.remove(client);
            return null;
        }
        e.lastSeen = now;
        return e.serverId;
    }

    /** Sends this client network to {@code serverId} from now on. */
    synchronized void bind(Object client, String serverId) {
        long now = nanoTime.getAsLong();
        entries.put(client, new Entry(serverId, now));
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry head = it.next();
            boolean expired = now - head.lastSeen >= timeoutNanos;
            if (!expired && entries.size() <= maxEntries) {
                break;
            }
            if (!expired) {
                forgotten++;
            }
            it.remove();
        }
    }

    synchronized int size() {
        return entries.size();
    }

    /** Entries dropped before their time because the table was full. */
    synchronized long forgotten() {
        return forgotten;
    }

    @Override
    public synchronized String toString() {
        return "ClientAddressTable[" + entries.size() + " of at most " + maxEntries + ", " + forgotten
                + " forgotten early]";
    }
}
