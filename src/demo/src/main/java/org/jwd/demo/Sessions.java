package org.jwd.demo;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sessions one server process holds, by id ({@code JSESSIONID}, or the {@code sap-contextid} value). Handled by
 * hand, not by Jetty's session manager, so that the ids are exactly SAP's: an id this server does not hold gets a new,
 * empty session under that same id, and state a dispatcher sends to the wrong server is visibly lost.
 */
final class Sessions {
    private final ConcurrentMap<String, Session> byId = new ConcurrentHashMap<>();

    /** One server-side session: named counters, nothing else. */
    static final class Session {
        final String id;
        private final ConcurrentMap<String, AtomicLong> counters = new ConcurrentHashMap<>();

        Session(String id) {
            this.id = id;
        }

        long get(String key) {
            AtomicLong c = counters.get(key);
            return c == null ? 0 : c.get();
        }

        long increment(String key) {
            return counters.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
        }
    }

    /** The session a request uses and whether this request created it. */
    record Ref(Session session, boolean created) {
        String id() {
            return session.id;
        }
    }

    /** The session under {@code id}; the first of concurrent requests creates it, the others use it. */
    Ref lookupOrCreate(String id) {
        Session existing = byId.get(id);
        if (existing != null) {
            return new Ref(existing, false);
        }
        Session created = new Session(id);
        existing = byId.putIfAbsent(id, created);
        return existing != null ? new Ref(existing, false) : new Ref(created, true);
    }

    int count() {
        return byId.size();
    }

    boolean holds(String id) {
        return byId.containsKey(id);
    }

    /** Forgets every session, as a restarted server process does. */
    void clear() {
        byId.clear();
    }
}
