package org.jwd.affinity;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.SessionTableConfig;
import org.jwd.sessiontable.SessionTimeouts;

/**
 * A request's session table keys, and which of them this pass has read (and so refreshed) already: every key the
 * table holds is refreshed once per request, whichever identifier placed it.
 */
final class TableKeys {
    /** The ESID's key, when ESIDs go through the table. */
    final String esid;
    /** The JSESSIONID, or {@code null}. */
    final String sessionId;
    /** Its key in SAP's session ID table (the JSESSIONIDs servers set), when that is on. */
    final String jsessionid;
    /** Its key in the temporary table (JSESSIONIDs bound at request time), when that is on. */
    final String temporary;
    private boolean esidRead;
    private boolean jsessionidRead;
    private boolean temporaryRead;

    TableKeys(SessionIdentifiers ids, DispatcherConfig config) {
        SessionTableConfig sessions = config.sessions();
        this.esid = ids.sapExtSid() != null && sessions.esidSupport() ? SessionTimeouts.esidKey(ids.sapExtSid())
                : null;
        this.sessionId = ids.jsessionid();
        this.jsessionid = sessionId != null && sessions.jsessionidTabSupport() ? sessionId : null;
        this.temporary = sessionId != null && sessions.temporaryTableEnabled()
                ? SessionTimeouts.temporaryKey(sessionId) : null;
    }

    /** Whether the JSESSIONID goes through a table at all. */
    boolean hasJsessionid() {
        return jsessionid != null || temporary != null;
    }

    String lookupEsid(RoutingEffects fx) {
        esidRead = true;
        return fx.lookup(esid);
    }

    String lookupJsessionid(RoutingEffects fx) {
        jsessionidRead = true;
        return fx.lookup(jsessionid);
    }

    String lookupTemporary(RoutingEffects fx) {
        temporaryRead = true;
        return fx.lookup(temporary);
    }

    void touchTheRest(RoutingEffects fx) {
        if (esid != null && !esidRead) {
            fx.touch(esid);
        }
        if (jsessionid != null && !jsessionidRead) {
            fx.touch(jsessionid);
        }
        // a temporary binding superseded by the server's own Set-Cookie (read first) is left to expire
        if (temporary != null && !temporaryRead && !jsessionidRead) {
            fx.touch(temporary);
        }
    }
}
