package org.jwd.affinity;

import java.util.List;

/**
 * What a request carries that can tie it to a server, as read by {@link SessionCookies#parse}. Every component
 * is well-formed or absent ({@code null}, or an empty list): malformed cookies and parameters never get here.
 *
 * @param saplbCookies     every well-formed {@code saplb_*} / {@code saplb_<group>} cookie, in header order, then
 *                         those of the URL ({@code ;saplb_*=...}) in path order (at most
 *                         {@link SessionCookies#MAX_SAPLB_COOKIES} of each)
 * @param jsessionid       the {@code JSESSIONID} cookie, else the {@code ;jsessionid=} path parameter, or {@code null}
 * @param jsessionidRoute  the route suffix of {@code jsessionid}: what follows its last '.', when both that and
 *                         the part before are non-empty ({@code abc.node1} -> {@code node1}; Jetty's
 *                         {@code node0abc.node0} -> {@code node0}), and the id does not name its server; otherwise
 *                         {@code null}
 * @param jsessionidServer the server an AS Java id names ({@code ls3022_BIN_12} of
 *                         {@code (ls3022_BIN_12)ID47500DB0.5138181876605873End}), or {@code null}
 * @param sapContextId     the ABAP session id, percent-decoded ({@code SID:ANON:host_JWD_00:42-NEW}): from a mangled
 *                         URL segment, else the {@code sap-contextid} cookie; or {@code null}
 * @param sapContextServer the ABAP server name inside it, its third ':' field ({@code host_JWD_00}), or {@code null}
 * @param sapExtSid        the {@code sap-ext-sid} cookie, else the {@code ;sap-ext-sid=} path parameter, or {@code null}
 */
public record SessionIdentifiers(List<SaplbCookie> saplbCookies, String jsessionid, String jsessionidRoute,
                                 String jsessionidServer, String sapContextId, String sapContextServer,
                                 String sapExtSid) {

    /** A request without any identifier. */
    public static final SessionIdentifiers NONE = new SessionIdentifiers(List.of(), null, null, null, null, null,
            null);

    public SessionIdentifiers {
        saplbCookies = saplbCookies == null ? List.of() : List.copyOf(saplbCookies);
    }

    /** Does the request carry no identifier at all (the common case of a first request)? */
    public boolean isEmpty() {
        return saplbCookies.isEmpty() && jsessionid == null && sapContextServer == null && sapExtSid == null;
    }

    /**
     * The {@code saplb} identifier that places a request of {@code logonGroup}, as SAP's Web Dispatcher picks it:
     * the first of that group's ({@code saplb_<group>}); when the request's URL has no logon group, or the group has
     * no such cookie, the first {@code saplb_*}; else {@code null}. Other groups' cookies are not read (SAP Library,
     * "Load Balancing Identifier": the Web Dispatcher "checks for path prefix match and thereby determines group
     * name ... This allows to obtain {@code <instance_id>} from the set of dispatch cookies"). What SAP's Web
     * Dispatcher does when the group has no cookie is not in the documents found; {@code saplb_*} is the cookie of a
     * landscape without "special group definitions", so it is read then (a session begun before the group existed).
     *
     * @param logonGroup the logon group whose URL prefix covers the request's path, or {@code null}
     */
    public SaplbCookie saplbFor(String logonGroup) {
        SaplbCookie any = null;
        for (SaplbCookie cookie : saplbCookies) {
            if (logonGroup != null && cookie.group().equals(logonGroup)) {
                return cookie;
            }
            if (any == null && cookie.isAnyGroup()) {
                any = cookie;
            }
        }
        return any;
    }
}
