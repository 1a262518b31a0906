package org.jwd.affinity;

/**
 * The {@code saplb_*} cookie jwd sets itself when {@code wdisp/add_saplb_cookie} is on:
 * {@code saplb_*=(<instance>)<node>; Path=/}.
 *
 * <p>The value is built from the server's {@code server.<id>.lb_id} so that it round-trips: when the browser
 * sends it back, {@link SaplbCookie#matches(String) matches(lbId)} holds for that server.
 * <ul>
 *   <li>an lb_id that already has the cookie form {@code (<instance>)<node>} (e.g. {@code (J2EE6906720)6906750})
 *       is written as is; it matches on the whole value;</li>
 *   <li>any other lb_id {@code X} (the default is the server id) is written {@code (X)X}: both parts carry it,
 *       so it matches on the node part, and a SAP system reading the instance part sees it too;</li>
 *   <li>an lb_id that cannot be written (empty, longer than {@link SessionCookies#MAX_SESSION_ID_LENGTH} once
 *       written, characters outside RFC 6265 cookie-octets, or unbalanced parentheses) is refused with
 *       {@link IllegalArgumentException}; check with {@link #canWrite} when building the topology.</li>
 * </ul>
 * The header value depends on the server only: compute it once per server and cache it.
 */
public final class SaplbCookieWriter {

    /** The name of the cookie jwd writes. */
    public static final String COOKIE_NAME = SessionCookies.SAPLB_PREFIX + SaplbCookie.ANY_GROUP;

    private SaplbCookieWriter() {
    }

    /** Can {@link #cookieValue} write a cookie for this lb_id? */
    public static boolean canWrite(String lbId) {
        return value(lbId) != null;
    }

    /**
     * The cookie value for a server with this lb_id: the lb_id itself when it has the form
     * {@code (<instance>)<node>}, else {@code (<lbId>)<lbId>}.
     *
     * @throws IllegalArgumentException when the lb_id cannot be written (see the class comment)
     */
    public static String cookieValue(String lbId) {
        String value = value(lbId);
        if (value == null) {
            throw new IllegalArgumentException("lb_id cannot be written into a saplb cookie: " + lbId);
        }
        return value;
    }

    /** The {@code Set-Cookie} header value: {@code saplb_*=<cookieValue(lbId)>; Path=/}. */
    public static String setCookieHeader(String lbId) {
        return setCookieHeader(lbId, false);
    }

    /**
     * The {@code Set-Cookie} header value, with {@code ; Secure} appended when {@code secure} (for HTTPS
     * requests).
     *
     * @throws IllegalArgumentException when the lb_id cannot be written
     */
    public static String setCookieHeader(String lbId, boolean secure) {
        String header = COOKIE_NAME + "=" + cookieValue(lbId) + "; Path=/";
        return secure ? header + "; Secure" : header;
    }

    private static String value(String lbId) {
        if (lbId == null || lbId.isEmpty() || !SessionCookies.isSessionId(lbId, 0, lbId.length())) {
            return null;
        }
        if (SessionCookies.saplb(SaplbCookie.ANY_GROUP, lbId) != null) {
            return lbId;
        }
        if (lbId.indexOf('(') >= 0 || lbId.indexOf(')') >= 0) {
            return null;
        }
        String value = "(" + lbId + ")" + lbId;
        return value.length() <= SessionCookies.MAX_SESSION_ID_LENGTH ? value : null;
    }
}
