package org.jwd.affinity;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the session identifiers of a request from its raw {@code Cookie} header values and from its URL: the path
 * parameters and the mangled segments the path normalizer set apart. SAP documents each identifier "as cookies or as
 * part of the URL (URL-rewriting scheme)" (SAP Library, "Session Identifiers", SAP Web Dispatcher).
 *
 * <p>The parser works by hand on the header text: no regular expressions, no {@code String.split}, one small
 * object per request plus a {@code String} for each identifier kept. It never throws: a malformed cookie or
 * parameter counts as absent. Its cost is linear in the header length (a 200 KB header, or 1,000 cookies, is
 * scanned once).
 *
 * <p>Rules (RFC 6265 with the leniency of servlet containers):
 * <ul>
 *   <li>cookie pairs are separated by {@code ;}; spaces and tabs around names and values are ignored; a pair
 *       without {@code =} or with an empty name is skipped; a value wrapped in one pair of double quotes is
 *       unwrapped;</li>
 *   <li>names are case-sensitive: {@code JSESSIONID}, {@code sap-contextid}, {@code sap-ext-sid},
 *       {@code saplb_<group>};</li>
 *   <li>duplicate names: the <em>first well-formed</em> occurrence wins, as servlet containers return the first
 *       (browsers send the cookie of the most specific path first); malformed occurrences are skipped. All
 *       well-formed {@code saplb} cookies are kept in header order, up to {@link #MAX_SAPLB_COOKIES};</li>
 *   <li>a session id ({@code JSESSIONID}, {@code sap-ext-sid}) is well-formed when it has 1 to
 *       {@link #MAX_SESSION_ID_LENGTH} characters, all RFC 6265 cookie-octets (visible ASCII except
 *       {@code " , ; \}); longer or odd ids are garbage that must not reach the session table.</li>
 * </ul>
 * The URL forms, on any segment: {@code ;jsessionid=} and {@code ;sap-ext-sid=} (the last one of the path, names
 * compared ignoring case), read when the cookie is absent; {@code ;saplb_<group>=(<instance>)<node>}, kept after the
 * cookies; and the ABAP session id that BSP writes into a mangled segment for sessions without cookies
 * ({@link MangledSegment}), which wins over a {@code sap-contextid} cookie, as it is what tells the sessions of one
 * browser apart there.
 */
public final class SessionCookies {

    /** Longest accepted {@code JSESSIONID} / {@code sap-ext-sid} / {@code saplb} value. */
    public static final int MAX_SESSION_ID_LENGTH = 256;
    /** How many {@code saplb} cookies are kept at most; a real browser sends one per logon group. */
    public static final int MAX_SAPLB_COOKIES = 32;
    /** Longest accepted raw {@code sap-contextid} value. */
    public static final int MAX_CONTEXT_ID_LENGTH = 512;

    static final String JSESSIONID = "JSESSIONID";
    static final String SAP_CONTEXTID = "sap-contextid";
    static final String SAP_EXT_SID = "sap-ext-sid";
    static final String SAPLB_PREFIX = "saplb_";

    private SessionCookies() {
    }

    /** {@link #parse(List, List, List)} for one {@code Cookie} header and a URL without identifiers. */
    public static SessionIdentifiers parse(String cookieHeader) {
        return parse(cookieHeader == null ? null : List.of(cookieHeader), List.of(), List.of());
    }

    /**
     * Reads the identifiers of one request.
     *
     * @param cookieHeaders the raw values of its {@code Cookie} headers (a browser sends one; HTTP/2 may split
     *                      it); {@code null} or empty when none; {@code null} elements are skipped
     * @param parameters    its path parameters, of every segment, in the order sent
     * @param mangledParts  the parenthesised parts of its mangled segments ({@code bD1lbiZjPTAwMQ==}), in order
     * @return never {@code null}; {@link SessionIdentifiers#NONE} when nothing usable was found
     */
    public static SessionIdentifiers parse(List<String> cookieHeaders, List<PathParameter> parameters,
                                           List<String> mangledParts) {
        Parser parser = new Parser();
        if (cookieHeaders != null) {
            for (String header : cookieHeaders) {
                if (header != null) {
                    parser.header(header);
                }
            }
        }
        if (!parameters.isEmpty()) {
            for (PathParameter p : parameters) {
                parser.parameter(p);
            }
        }
        if (!mangledParts.isEmpty()) {
            String sessionId = MangledSegment.sessionId(mangledParts);
            if (sessionId != null) {
                parser.contextId(sessionId, 0, sessionId.length());
            }
        }
        return parser.result();
    }

    /**
     * Parses a {@code saplb} cookie value {@code (<instance>)<node>}; {@code null} when malformed. Exposed for
     * {@link SaplbCookieWriter} and tests.
     */
    static SaplbCookie saplb(String group, String value) {
        return saplb(group, value, 0, value.length());
    }

    /**
     * The route suffix of a session id: after the last '.', when that and the part before are non-empty; never for
     * an id in SAP's form, which names its server ({@link #serverName}): its {@code .5138181876605873End} is no route.
     */
    public static String route(String sessionId) {
        if (sessionId == null) {
            return null;
        }
        int dot = sessionId.lastIndexOf('.');
        if (dot <= 0 || dot == sessionId.length() - 1 || serverName(sessionId) != null) {
            return null;
        }
        return sessionId.substring(dot + 1);
    }

    /**
     * The server an AS Java session id names: {@code ls3022_BIN_12} of {@code (ls3022_BIN_12)ID47500DB0.5138181876605873End}
     * (SAP Library, "J2EE Session Identifier": {@code URL-encode("(" <sap-server-name> ")" <internal-id> End)});
     * {@code null} for an id of another form.
     */
    public static String serverName(String sessionId) {
        if (sessionId == null || !sessionId.endsWith("End")) {
            return null;
        }
        String id = sessionId.indexOf('%') < 0 ? sessionId
                : CookieOctets.percentDecoded(sessionId, 0, sessionId.length());
        int close = id == null || id.isEmpty() || id.charAt(0) != '(' ? -1 : id.indexOf(')');
        if (close < 2 || id.lastIndexOf('(') != 0) {
            return null;
        }
        return id.substring(1, close);
    }

    private static final class Parser {
        String jsessionid;
        String sapContextId;
        String sapContextServer;
        String sapExtSid;
        List<SaplbCookie> saplb;
        /** The URL forms of JSESSIONID and ESID: the last one of the path, read when no cookie gave one. */
        String jsessionidParameter;
        String sapExtSidParameter;
        List<SaplbCookie> saplbParameters;

        void header(String h) {
            int n = h.length();
            int i = 0;
            while (i < n) {
                char c = h.charAt(i);
                if (c == ';' || c == ' ' || c == '\t') {
                    i++;
                    continue;
                }
                int start = i;
                int eq = -1;
                while (i < n && (c = h.charAt(i)) != ';') {
                    if (c == '=' && eq < 0) {
                        eq = i;
                    }
                    i++;
                }
                if (eq > start) {
                    pair(h, start, eq, i);
                }
            }
        }

        /** One {@code name=value} pair: name starts at {@code start} (not blank), '=' at {@code eq}, ends at {@code end}. */
        private void pair(String h, int start, int eq, int end) {
            int nameEnd = trimEnd(h, start, eq);
            int nameLength = nameEnd - start;
            int valueStart = trimStart(h, eq + 1, end);
            int valueEnd = trimEnd(h, valueStart, end);
            if (valueEnd - valueStart >= 2 && h.charAt(valueStart) == '"' && h.charAt(valueEnd - 1) == '"') {
                valueStart++;
                valueEnd--;
            }
            switch (nameLength) {
                case 10:
                    if (jsessionid == null && h.regionMatches(start, JSESSIONID, 0, 10)
                            && isSessionId(h, valueStart, valueEnd)) {
                        jsessionid = h.substring(valueStart, valueEnd);
                        return;
                    }
                    break;
                case 11:
                    if (sapExtSid == null && h.regionMatches(start, SAP_EXT_SID, 0, 11)
                            && isSessionId(h, valueStart, valueEnd)) {
                        sapExtSid = h.substring(valueStart, valueEnd);
                        return;
                    }
                    break;
                case 13:
                    if (sapContextId == null && h.regionMatches(start, SAP_CONTEXTID, 0, 13)) {
                        contextId(h, valueStart, valueEnd);
                        return;
                    }
                    break;
                default:
                    break;
            }
            if (nameLength > SAPLB_PREFIX.length() && h.regionMatches(start, SAPLB_PREFIX, 0, SAPLB_PREFIX.length())
                    && (saplb == null || saplb.size() < MAX_SAPLB_COOKIES)) {
                saplbPair(h, start + SAPLB_PREFIX.length(), nameEnd, valueStart, valueEnd);
            }
        }

        /** A {@code saplb_<group>} pair: the group from {@code groupStart} to {@code nameEnd}, then the value. */
        private void saplbPair(String h, int groupStart, int nameEnd, int valueStart, int valueEnd) {
            SaplbCookie cookie = saplbOf(h, groupStart, nameEnd, valueStart, valueEnd);
            if (cookie != null) {
                if (saplb == null) {
                    saplb = new ArrayList<>(2);
                }
                saplb.add(cookie);
            }
        }

        /** One path parameter: an identifier in its URL form, or nothing of ours. */
        void parameter(PathParameter p) {
            String name = p.name();
            String value = p.value();
            if (name.equalsIgnoreCase("jsessionid") && isSessionId(value, 0, value.length())) {
                jsessionidParameter = value;
            } else if (name.equalsIgnoreCase(SAP_EXT_SID) && isSessionId(value, 0, value.length())) {
                sapExtSidParameter = value;
            } else if (name.length() > SAPLB_PREFIX.length() && name.startsWith(SAPLB_PREFIX)
                    && (saplbParameters == null || saplbParameters.size() < MAX_SAPLB_COOKIES)) {
                SaplbCookie cookie = saplbOf(name, SAPLB_PREFIX.length(), name.length(), value, 0, value.length());
                if (cookie != null) {
                    if (saplbParameters == null) {
                        saplbParameters = new ArrayList<>(1);
                    }
                    saplbParameters.add(cookie);
                }
            }
        }

        /**
         * Reads {@code SID:ANON:<host>_<SID>_<nr>:<id>-<mode>}, percent-encoded, from {@code h[from, to)}: a later
         * call with a well-formed id replaces an earlier one.
         */
        void contextId(String h, int from, int to) {
            if (to - from > MAX_CONTEXT_ID_LENGTH) {
                return;
            }
            String decoded = CookieOctets.percentDecoded(h, from, to);
            if (decoded == null) {
                return;
            }
            // SID:ANON:<host>_<SID>_<nr>:<id>-<mode>: four non-empty ':'-separated fields (the last may hold ':')
            int c1 = decoded.indexOf(':');
            int c2 = c1 < 0 ? -1 : decoded.indexOf(':', c1 + 1);
            int c3 = c2 < 0 ? -1 : decoded.indexOf(':', c2 + 1);
            if (c1 <= 0 || c2 <= c1 + 1 || c3 <= c2 + 1 || c3 == decoded.length() - 1) {
                return;
            }
            sapContextId = decoded;
            sapContextServer = decoded.substring(c2 + 1, c3);
        }

        SessionIdentifiers result() {
            jsessionid = jsessionid != null ? jsessionid : jsessionidParameter;
            sapExtSid = sapExtSid != null ? sapExtSid : sapExtSidParameter;
            if (saplbParameters != null) {
                if (saplb == null) {
                    saplb = saplbParameters;
                } else {
                    saplb.addAll(saplbParameters);
                }
            }
            if (jsessionid == null && sapContextServer == null && sapExtSid == null && saplb == null) {
                return SessionIdentifiers.NONE;
            }
            return new SessionIdentifiers(saplb == null ? List.of() : saplb, jsessionid, route(jsessionid),
                    serverName(jsessionid), sapContextId, sapContextServer, sapExtSid);
        }
    }

    /** A {@code saplb_<group>} name from {@code groupStart} to {@code nameEnd} of {@code n}, its value in {@code v}. */
    private static SaplbCookie saplbOf(String n, int groupStart, int nameEnd, String v, int valueStart, int valueEnd) {
        if (!CookieOctets.all(n, groupStart, nameEnd)) {
            return null;
        }
        String group = nameEnd - groupStart == 1 && n.charAt(groupStart) == '*'
                ? SaplbCookie.ANY_GROUP : n.substring(groupStart, nameEnd);
        return saplb(group, v, valueStart, valueEnd);
    }

    private static SaplbCookie saplbOf(String h, int groupStart, int nameEnd, int valueStart, int valueEnd) {
        return saplbOf(h, groupStart, nameEnd, h, valueStart, valueEnd);
    }

    private static SaplbCookie saplb(String group, String h, int from, int to) {
        // (<instance>)<node>: instance non-empty, node may be empty, no other parentheses, cookie-octets only
        if (to - from < 3 || to - from > MAX_SESSION_ID_LENGTH || h.charAt(from) != '('
                || !CookieOctets.all(h, from, to)) {
            return null;
        }
        int close = -1;
        for (int i = from + 1; i < to; i++) {
            char c = h.charAt(i);
            if (c == '(') {
                return null;
            }
            if (c == ')') {
                if (close >= 0) {
                    return null;
                }
                close = i;
            }
        }
        if (close <= from + 1) {
            return null;
        }
        String value = h.substring(from, to);
        int closeInValue = close - from;
        return new SaplbCookie(group, value, value.substring(1, closeInValue), value.substring(closeInValue + 1));
    }

    /** Is {@code s[from, to)} an acceptable session id? */
    static boolean isSessionId(String s, int from, int to) {
        int length = to - from;
        return length > 0 && length <= MAX_SESSION_ID_LENGTH && CookieOctets.all(s, from, to);
    }

    private static int trimStart(String s, int from, int to) {
        while (from < to && isBlank(s.charAt(from))) {
            from++;
        }
        return from;
    }

    private static int trimEnd(String s, int from, int to) {
        while (to > from && isBlank(s.charAt(to - 1))) {
            to--;
        }
        return to;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }
}
