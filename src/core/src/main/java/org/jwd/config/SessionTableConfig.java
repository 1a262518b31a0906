package org.jwd.config;

import java.time.Duration;

/**
 * The session tables' keys: SAP's session ID table ({@code wdisp/HTTP/*}) and the Java dispatcher's temporary table
 * ({@code SessionTableTimeout}), one store for both, and the {@code saplb} cookie jwd may add.
 *
 * @param sessionTableTimeout   the temporary table ({@code SessionTableTimeout}): above zero, JSESSIONIDs are bound
 *                              at request time and their entries idle-expire after it; zero (the default) leaves the
 *                              request-time binding off
 * @param esidSupport           {@code wdisp/HTTP/esid_support}: sap-ext-sid values dispatched through the session ID
 *                              table (bound at request time)
 * @param jsessionidTabSupport  {@code wdisp/HTTP/jsessionid_tab_support}: JSESSIONIDs a server sets are learned into
 *                              the session ID table and dispatched through it
 * @param contextTimeout        {@code wdisp/HTTP/context_timeout}: idle timeout of the session ID table's entries
 * @param maxSessionTableEntries {@code wdisp/HTTP/max_session_tab_entries}
 * @param sessionTableHeapEntries {@code SessionTable.heap_entries}
 * @param sessionTableOffHeapMegabytes {@code SessionTable.offheap_MB}
 * @param addSaplbCookie        {@code wdisp/add_saplb_cookie}
 */
public record SessionTableConfig(Duration sessionTableTimeout, boolean esidSupport, boolean jsessionidTabSupport,
                                 Duration contextTimeout, long maxSessionTableEntries, long sessionTableHeapEntries,
                                 long sessionTableOffHeapMegabytes, boolean addSaplbCookie) {

    /** The Java dispatcher's temporary session table: JSESSIONIDs bound at request time. */
    public boolean temporaryTableEnabled() {
        return !sessionTableTimeout.isZero();
    }

    /** Whether this configuration keeps a table of its own (without regard to the systems'). */
    boolean tableEnabled() {
        return esidSupport || jsessionidTabSupport || temporaryTableEnabled();
    }

    /**
     * The idle timeout of a JSESSIONID entry a server set: {@code wdisp/HTTP/context_timeout}, as every entry of SAP's
     * session ID table. Those bound at request time ({@link #temporaryTableEnabled()}) idle-expire after
     * {@code SessionTableTimeout}.
     */
    public Duration jsessionidTimeout() {
        return contextTimeout;
    }
}
