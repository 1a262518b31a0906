package org.jwd.affinity;

import org.jwd.config.DispatcherConfig;
import org.jwd.sessiontable.SessionTimeouts;

/**
 * A request's session table keys, and which of them this pass has read (and so refreshed) already: every key the
 * table holds is refreshed once per request, whichever identifier placed it.
 */
final class TableKeys {
    /** The ESID's key, when ESIDs go through the table. */
    final String esid;
    /** The JSESSIONID, when JSESSIONIDs go through the table. */
    final String jsessionid;
    private boolean esidRead;
    private boolean jsessionidRead;

    TableKeys(SessionIdentifiers ids, DispatcherConfig config) {
        this.esid = ids.sapExtSid() != null && config.sessions().esidSupport() ? SessionTimeouts.esidKey(ids.sapExtSid())
                : null;
        this.jsessionid = ids.jsessionid() != null && config.sessions().learnsJsessionids() ? ids.jsessionid() : null;
    }

    String lookupEsid(RoutingEffects fx) {
        esidRead = true;
        return fx.lookup(esid);
    }

    String lookupJsessionid(RoutingEffects fx) {
        jsessionidRead = true;
        return fx.lookup(jsessionid);
    }

    void touchTheRest(RoutingEffects fx) {
        if (esid != null && !esidRead) {
            fx.touch(esid);
        }
        if (jsessionid != null && !jsessionidRead) {
            fx.touch(jsessionid);
        }
    }
}
