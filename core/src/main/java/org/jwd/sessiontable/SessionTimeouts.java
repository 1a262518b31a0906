package org.jwd.sessiontable;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.PerSystemConfigs;

/**
 * The idle timeouts of the session table's entries, by the kind of key: one store holds SAP's session ID table
 * (ESIDs, learned JSESSIONIDs) and the Java dispatcher's temporary table (JSESSIONIDs bound at request time).
 *
 * <ul>
 *   <li>ESID entries (keys made by {@link #esidKey}) idle-expire after {@code wdisp/HTTP/context_timeout};</li>
 *   <li>JSESSIONID entries after {@code SessionTableTimeout} when the temporary table is on, else after
 *       {@code wdisp/HTTP/context_timeout} ({@link DispatcherConfig#jsessionidTimeout()}).</li>
 * </ul>
 *
 * With {@code wdisp/system_<xx>} entries the systems share the one table, and each system's entries (keys
 * {@code ERP/...}) expire after that system's timeouts ({@code system.ERP.SessionTableTimeout}, ...; the unscoped
 * keys where it has no scoped one): {@code ERP/4711} may expire after 10 minutes while {@code PRT/4711} lives on
 * for an hour.
 *
 * @param esid       the idle timeout of ESID entries; positive
 * @param jsessionid the idle timeout of JSESSIONID entries; positive
 * @param systems    each system's own timeouts by SID (themselves without systems); a key of no SID here, or of
 *                   none, takes {@code esid} and {@code jsessionid}
 */
public record SessionTimeouts(Duration esid, Duration jsessionid, Map<String, SessionTimeouts> systems) {
    /** sap-ext-sid values share the store with JSESSIONIDs; the prefix keeps the two apart. */
    static final String ESID_PREFIX = "sap-ext-sid:";
    /** {@code ERP/}: the part a system's key starts with. */
    private static final int SYSTEM_PART = 4;

    public SessionTimeouts {
        requirePositive(esid, "ESID timeout");
        requirePositive(jsessionid, "JSESSIONID timeout");
        // sorted, so that toString lists the systems in the same order every time
        systems = Collections.unmodifiableMap(new TreeMap<>(systems));
        systems.forEach((sid, own) -> {
            if (sid.length() != SYSTEM_PART - 1 || sid.indexOf('/') >= 0 || !own.systems().isEmpty()) {
                throw new IllegalArgumentException("session table timeouts of system '" + sid + "': expected a"
                        + " three-character SID and the system's own two timeouts, got " + own);
            }
        });
    }

    /** The two timeouts, without systems. */
    public SessionTimeouts(Duration esid, Duration jsessionid) {
        this(esid, jsessionid, Map.of());
    }

    /** Both kinds of entry with the same timeout. */
    public static SessionTimeouts both(Duration timeout) {
        return new SessionTimeouts(timeout, timeout);
    }

    /** The timeouts {@code config} gives: its own, and with {@code wdisp/system_<xx>} entries each system's. */
    public static SessionTimeouts of(DispatcherConfig config) {
        Map<String, SessionTimeouts> systems = new TreeMap<>();
        PerSystemConfigs.of(config).forEach((sid, system) -> systems.put(sid, ownOf(system)));
        return new SessionTimeouts(config.sessions().contextTimeout(), config.sessions().jsessionidTimeout(), systems);
    }

    private static SessionTimeouts ownOf(DispatcherConfig config) {
        return new SessionTimeouts(config.sessions().contextTimeout(), config.sessions().jsessionidTimeout());
    }

    /** The table's key of an ESID ({@code sap-ext-sid} value); a JSESSIONID is its own key. */
    public static String esidKey(String esid) {
        return ESID_PREFIX + esid;
    }

    /**
     * The timeout of the entry with this key. A key of one of several systems starts with its three-character SID
     * and {@code '/'} ({@code ERP/sap-ext-sid:...}, as {@code org.jwd.systems.SystemSessionKey} writes it): the
     * system's timeouts apply, and its kind is read after them.
     */
    public Duration forKey(String key) {
        boolean ofSystem = key.length() > SYSTEM_PART && key.charAt(SYSTEM_PART - 1) == '/';
        if (!ofSystem) {
            return key.startsWith(ESID_PREFIX) ? esid : jsessionid;
        }
        // without systems' own timeouts (a table in tests, say) no SID is cut out of the key on this hot path
        SessionTimeouts own = systems.isEmpty() ? this
                : systems.getOrDefault(key.substring(0, SYSTEM_PART - 1), this);
        return key.startsWith(ESID_PREFIX, SYSTEM_PART) ? own.esid : own.jsessionid;
    }

    /**
     * The longest of all, every system's included: how long a store that cannot expire by key (the cluster's
     * Terracotta store) must keep an entry.
     */
    public Duration longest() {
        return all().max(Duration::compareTo).orElseThrow();
    }

    /** The shortest of all, every system's included: how often a sweep must look for expired entries. */
    public Duration shortest() {
        return all().min(Duration::compareTo).orElseThrow();
    }

    private Stream<Duration> all() {
        return Stream.concat(Stream.of(esid, jsessionid),
                systems.values().stream().flatMap(own -> Stream.of(own.esid, own.jsessionid)));
    }

    private static void requirePositive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("session table " + what + " must be positive: " + d);
        }
    }

    /** {@code 1h}, or {@code ESID 1h, JSESSIONID 10m}; then each system whose timeouts differ: {@code ; ERP 10m}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(own());
        systems.forEach((sid, own) -> {
            if (!own.esid.equals(esid) || !own.jsessionid.equals(jsessionid)) {
                text.append("; ").append(sid).append(' ').append(own.own());
            }
        });
        return text.toString();
    }

    private String own() {
        return esid.equals(jsessionid) ? Durations.format(esid)
                : "ESID " + Durations.format(esid) + ", JSESSIONID " + Durations.format(jsessionid);
    }
}
