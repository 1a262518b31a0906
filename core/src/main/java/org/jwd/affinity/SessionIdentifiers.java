package org.jwd.affinity;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What a request carries that can tie it to a server, as read by {@link SessionCookies#parse}. Every component
 * is well-formed or absent ({@code null}, or an empty list): malformed cookies and parameters never get here.
 *
 * @param saplbCookies     every well-formed {@code saplb_*} / {@code saplb_<group>} cookie, in header order
 *                         (at most {@link SessionCookies#MAX_SAPLB_COOKIES})
 * @param jsessionid       the {@code JSESSIONID} cookie, else the {@code ;jsessionid=} path parameter, or {@code null}
 * @param jsessionidRoute  the route suffix of {@code jsessionid}: what follows its last '.', when both that and
 *                         the part before are non-empty ({@code abc.node1} -> {@code node1}; Jetty's
 *                         {@code node0abc.node0} -> {@code node0}); otherwise {@code null}
 * @param sapContextId     the {@code sap-contextid} cookie, percent-decoded
 *                         ({@code SID:ANON:host_JWD_00:42-NEW}), or {@code null}
 * @param sapContextServer the ABAP server name inside it, its third ':' field ({@code host_JWD_00}), or {@code null}
 * @param sapExtSid        the {@code sap-ext-sid} cookie, else the {@code ;sap-ext-sid=} path parameter, or {@code null}
 */
public record SessionIdentifiers(List<SaplbCookie> saplbCookies, String jsessionid, String jsessionidRoute,
                                 String sapContextId, String sapContextServer, String sapExtSid) {

    /** A request without any identifier. */
    public static final SessionIdentifiers NONE = new SessionIdentifiers(List.of(), null, null, null, null, null);

    public SessionIdentifiers {
        saplbCookies = saplbCookies == null ? List.of() : List.copyOf(saplbCookies);
    }

    /** Does the request carry no identifier at all (the common case of a first request)? */
    public boolean isEmpty() {
        return saplbCookies.isEmpty() && jsessionid == null && sapContextServer == null && sapExtSid == null;
    }

    /**
     * The key of this request's session in the {@link SessionTable}: the {@code JSESSIONID}, else the
     * {@code sap-ext-sid}, else {@code null}.
     */
    public String sessionTableKey() {
        return jsessionid != null ? jsessionid : sapExtSid;
    }

    /**
     * The first {@code saplb} cookie, in header order, that designates a known server: for each cookie its
     * whole value is tried, then its node part (see {@link SaplbCookie#matches}).
     *
     * @param isKnownLbId whether some server has this {@code lb_id}; the router keys its servers by lb_id
     * @return the string {@code isKnownLbId} accepted (the whole value or the node part), to look the server up
     */
    public Optional<String> saplbMatch(Predicate<String> isKnownLbId) {
        for (SaplbCookie cookie : saplbCookies) {
            String match = match(cookie, isKnownLbId);
            if (match != null) {
                return Optional.of(match);
            }
        }
        return Optional.empty();
    }

    /**
     * Like {@link #saplbMatch(Predicate)}, for a request of logon group {@code logonGroup}: the cookies of that
     * group are tried first, then the {@code saplb_*} ones; cookies of other groups are not considered.
     * A {@code null} group tries only the {@code saplb_*} cookies.
     */
    public Optional<String> saplbMatch(String logonGroup, Predicate<String> isKnownLbId) {
        if (logonGroup != null && !SaplbCookie.ANY_GROUP.equals(logonGroup)) {
            for (SaplbCookie cookie : saplbCookies) {
                if (cookie.group().equals(logonGroup)) {
                    String match = match(cookie, isKnownLbId);
                    if (match != null) {
                        return Optional.of(match);
                    }
                }
            }
        }
        for (SaplbCookie cookie : saplbCookies) {
            if (cookie.isAnyGroup()) {
                String match = match(cookie, isKnownLbId);
                if (match != null) {
                    return Optional.of(match);
                }
            }
        }
        return Optional.empty();
    }

    private static String match(SaplbCookie cookie, Predicate<String> isKnownLbId) {
        if (isKnownLbId.test(cookie.value())) {
            return cookie.value();
        }
        if (!cookie.node().isEmpty() && isKnownLbId.test(cookie.node())) {
            return cookie.node();
        }
        return null;
    }
}
