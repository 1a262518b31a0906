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
import org.jwd.config.SessionTableConfig;

/**
 * The idle timeouts of the session table's entries, by the kind of key: one store holds SAP's session ID table
 * (ESIDs, and the JSESSIONIDs servers set) and the Java dispatcher's temporary table (JSESSIONIDs bound at request
 * time).
 *
 * <ul>
 *   <li>ESID entries (keys made by {@link #esidKey}) idle-expire after {@code wdisp/HTTP/context_timeout};</li>
 *   <li>JSESSIONID entries learned from a server's {@code Set-Cookie} (the JSESSIONID is its own key) after
 *       {@code wdisp/HTTP/context_timeout} too: they are SAP's session ID table's;</li>
 *   <li>JSESSIONID entries bound at request time (keys made by {@link #temporaryKey}) after
 *       {@code SessionTableTimeout}, the Java dispatcher's temporary table's timeout.</li>
 * </ul>
 *
 * With {@code wdisp/system_<xx>} entries the systems share the one table, and each system's entries (keys
 * {@code ERP/...}) expire after that system's timeouts ({@code system.ERP.SessionTableTimeout}, ...; the unscoped
 * keys where it has no scoped one): {@code ERP/4711} may expire after 10 minutes while {@code PRT/4711} lives on
 * for an hour.
 *
 * @param esid       the idle timeout of ESID entries; positive
 * @param jsessionid the idle timeout of learned JSESSIONID entries; positive
 * @param temporary  the idle timeout of JSESSIONID entries bound at request time; positive
 * @param systems    each system's own timeouts by SID (themselves without systems); a key of no SID here, or of
 *                   none, takes this record's own
 */
public record SessionTimeouts(Duration esid, Duration jsessionid, Duration temporary,
                              Map<String, SessionTimeouts> systems) {
    /** sap-ext-sid values share the store with JSESSIONIDs; the prefix keeps the two apart. */
    static final String ESID_PREFIX = "sap-ext-sid:";
    /** A JSESSIONID bound at request time: apart from the same id learned from a server, which outlives it. */
    static final String TEMPORARY_PREFIX = "temporary:";
    /** {@code ERP/}: the part a system's key starts with. */
    private static final int SYSTEM_PART = 4;

    public SessionTimeouts {
        requirePositive(esid, "ESID timeout");
        requirePositive(jsessionid, "JSESSIONID timeout");
        requirePositive(temporary, "temporary table timeout");
        // sorted, so that toString lists the systems in the same order every time
        systems = Collections.unmodifiableMap(new TreeMap<>(systems));
        systems.forEach((sid, own) -> {
            if (sid.length() != SYSTEM_PART - 1 || sid.indexOf('/') >= 0 || !own.systems().isEmpty()) {
                throw new IllegalArgumentException("session table timeouts of system '" + sid + "': expected a"
                        + " three-character SID and the system's own timeouts, got " + own);
            }
        });
    }

    /** Every JSESSIONID entry, learned or bound at request time, with {@code jsessionid}; each system's its own. */
    public SessionTimeouts(Duration esid, Duration jsessionid, Map<String, SessionTimeouts> systems) {
        this(esid, jsessionid, jsessionid, systems);
    }

    /** The three timeouts, without systems. */
    public SessionTimeouts(Duration esid, Duration jsessionid, Duration temporary) {
        this(esid, jsessionid, temporary, Map.of());
    }

    /** Every JSESSIONID entry with {@code jsessionid}, without systems. */
    public SessionTimeouts(Duration esid, Duration jsessionid) {
        this(esid, jsessionid, jsessionid, Map.of());
    }

    /** Every kind of entry with the same timeout. */
    public static SessionTimeouts both(Duration timeout) {
        return new SessionTimeouts(timeout, timeout);
    }

    /** The timeouts {@code config} gives: its own, and with {@code wdisp/system_<xx>} entries each system's. */
    public static SessionTimeouts of(DispatcherConfig config) {
        Map<String, SessionTimeouts> systems = new TreeMap<>();
        PerSystemConfigs.of(config).forEach((sid, system) -> systems.put(sid, ownOf(system)));
        SessionTimeouts own = ownOf(config);
        return new SessionTimeouts(own.esid, own.jsessionid, own.temporary, systems);
    }

    private static SessionTimeouts ownOf(DispatcherConfig config) {
        SessionTableConfig sessions = config.sessions();
        return new SessionTimeouts(sessions.contextTimeout(), sessions.contextTimeout(),
                sessions.temporaryTableEnabled() ? sessions.sessionTableTimeout() : sessions.contextTimeout());
    }

    /** The table's key of an ESID ({@code sap-ext-sid} value); a JSESSIONID a server set is its own key. */
    public static String esidKey(String esid) {
        return ESID_PREFIX + esid;
    }

    /** The table's key of a JSESSIONID bound at request time (the Java dispatcher's temporary table). */
    public static String temporaryKey(String jsessionid) {
        return TEMPORARY_PREFIX + jsessionid;
    }

    /**
     * Whether the key is a JSESSIONID as a server set it (SAP's session ID table), not an ESID's nor a binding made at
     * request time: the key every request with a JSESSIONID reads first, and misses for as long as its session lives
     * in the temporary table only.
     */
    static boolean isLearnedJsessionid(String key) {
        int kind = key.length() > SYSTEM_PART && key.charAt(SYSTEM_PART - 1) == '/' ? SYSTEM_PART : 0;
        return !key.startsWith(ESID_PREFIX, kind) && !key.startsWith(TEMPORARY_PREFIX, kind);
    }

    /**
     * The timeout of the entry with this key. A key of one of several systems starts with its three-character SID
     * and {@code '/'} ({@code ERP/sap-ext-sid:...}, as {@code org.jwd.systems.SystemSessionKey} writes it): the
     * system's timeouts apply, and its kind is read after them.
     */
    public Duration forKey(String key) {
        boolean ofSystem = key.length() > SYSTEM_PART && key.charAt(SYSTEM_PART - 1) == '/';
        // without systems' own timeouts (a table in tests, say) no SID is cut out of the key on this hot path
        SessionTimeouts own = !ofSystem || systems.isEmpty() ? this
                : systems.getOrDefault(key.substring(0, SYSTEM_PART - 1), this);
        int kind = ofSystem ? SYSTEM_PART : 0;
        if (key.startsWith(ESID_PREFIX, kind)) {
            return own.esid;
        }
        return key.startsWith(TEMPORARY_PREFIX, kind) ? own.temporary : own.jsessionid;
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
        return Stream.concat(Stream.of(esid, jsessionid, temporary),
                systems.values().stream().flatMap(own -> Stream.of(own.esid, own.jsessionid, own.temporary)));
    }

    private static void requirePositive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("session table " + what + " must be positive: " + d);
        }
    }

    /**
     * {@code 1h}, {@code ESID 1h, JSESSIONID 10m} or {@code 1h, temporary table 10m}; then each system whose
     * timeouts differ: {@code ; ERP 10m}.
     */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(own());
        systems.forEach((sid, own) -> {
            if (!own.own().equals(own())) {
                text.append("; ").append(sid).append(' ').append(own.own());
            }
        });
        return text.toString();
    }

    private String own() {
        String learned = esid.equals(jsessionid) ? Durations.format(esid)
                : "ESID " + Durations.format(esid) + ", JSESSIONID " + Durations.format(jsessionid);
        return temporary.equals(jsessionid) ? learned : learned + ", temporary table " + Durations.format(temporary);
    }
}
