package org.jwd.systems;

import java.util.Objects;

/**
 * The key of a session table entry, with the system it belongs to: the same JSESSIONID value in two systems names
 * two sessions on two servers (a portal page's iViews from two systems can carry the same value), so a table
 * shared by the systems keys each binding by both.
 *
 * <p>The tables store the {@link #encoded()} form, a string as today: {@code ERP/<key>}. For the implicit system it
 * is the key alone, so that without {@code wdisp/system_<xx>} every table, cluster entry and timeout rule stays
 * exactly as it is. {@code tableKey} is what the tables key by today (a JSESSIONID, or an ESID in its
 * {@code sap-ext-sid:} form), whose kind decides the entry's timeout.
 *
 * @param sid      the system's SID, {@code null} for the implicit system
 * @param tableKey the session's key within its system
 */
public record SystemSessionKey(String sid, String tableKey) {
    private static final char SEPARATOR = '/';
    private static final int SHOWN = 6;

    public SystemSessionKey {
        Objects.requireNonNull(tableKey, "tableKey");
        if (sid != null && !SystemEntryParser.SID.matcher(sid).matches()) {
            throw new IllegalArgumentException("SID '" + sid + "': expected " + SystemEntryParser.SID_EXPECTED);
        }
    }

    /** The key of {@code tableKey} in {@code system}. */
    public static SystemSessionKey of(SystemEntry system, String tableKey) {
        return new SystemSessionKey(system.sid(), tableKey);
    }

    /** What a table stores: {@code ERP/<tableKey>}, or {@code tableKey} alone for the implicit system. */
    public String encoded() {
        return sid == null ? tableKey : sid + SEPARATOR + tableKey;
    }

    /**
     * Reads a key a table stored, for the admin page and the timeouts. A SID is three characters without
     * {@code '/'}, so the fourth character tells where it ends.
     *
     * @return the key, or {@code null} when {@code encoded} names no system of {@code systems} (an entry made before
     *         a reload changed the systems; it expires unused)
     */
    public static SystemSessionKey decode(String encoded, Systems systems) {
        if (systems.isImplicit()) {
            return new SystemSessionKey(null, encoded);
        }
        if (encoded.length() < 4 || encoded.charAt(3) != SEPARATOR) {
            return null;
        }
        String sid = encoded.substring(0, 3);
        return systems.system(sid) == null ? null : new SystemSessionKey(sid, encoded.substring(4));
    }

    /**
     * The system and the key's first characters only: a session id is a credential, and this is what log lines
     * and error messages show.
     */
    @Override
    public String toString() {
        String shown = tableKey.length() <= SHOWN ? tableKey : tableKey.substring(0, SHOWN) + "...";
        return (sid == null ? "" : sid + SEPARATOR) + shown;
    }
}
