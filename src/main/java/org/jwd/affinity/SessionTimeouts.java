package org.jwd.affinity;

import java.time.Duration;
import java.util.Objects;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;

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
 * @param esid       the idle timeout of ESID entries; positive
 * @param jsessionid the idle timeout of JSESSIONID entries; positive
 */
public record SessionTimeouts(Duration esid, Duration jsessionid) {
    /** sap-ext-sid values share the store with JSESSIONIDs; the prefix keeps the two apart. */
    static final String ESID_PREFIX = "sap-ext-sid:";
    /** {@code ERP/}: the part a system's key starts with. */
    private static final int SYSTEM_PART = 4;

    public SessionTimeouts {
        requirePositive(esid, "ESID timeout");
        requirePositive(jsessionid, "JSESSIONID timeout");
    }

    /** Both kinds of entry with the same timeout. */
    public static SessionTimeouts both(Duration timeout) {
        return new SessionTimeouts(timeout, timeout);
    }

    public static SessionTimeouts of(DispatcherConfig config) {
        return new SessionTimeouts(config.contextTimeout(), config.jsessionidTimeout());
    }

    /** The table's key of an ESID ({@code sap-ext-sid} value); a JSESSIONID is its own key. */
    public static String esidKey(String esid) {
        return ESID_PREFIX + esid;
    }

    /**
     * The timeout of the entry with this key. A key of one of several systems starts with its three-character SID
     * and {@code '/'} ({@code ERP/sap-ext-sid:...}, as {@code org.jwd.systems.SystemSessionKey} writes it): its
     * kind is read after them.
     */
    public Duration forKey(String key) {
        boolean ofSystem = key.length() > SYSTEM_PART && key.charAt(SYSTEM_PART - 1) == '/';
        return key.startsWith(ESID_PREFIX) || ofSystem && key.startsWith(ESID_PREFIX, SYSTEM_PART) ? esid : jsessionid;
    }

    /** The longer of the two: how long a store that cannot expire by key must keep an entry. */
    public Duration longest() {
        return esid.compareTo(jsessionid) >= 0 ? esid : jsessionid;
    }

    private static void requirePositive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("session table " + what + " must be positive: " + d);
        }
    }

    @Override
    public String toString() {
        return esid.equals(jsessionid) ? Durations.format(esid)
                : "ESID " + Durations.format(esid) + ", JSESSIONID " + Durations.format(jsessionid);
    }
}
