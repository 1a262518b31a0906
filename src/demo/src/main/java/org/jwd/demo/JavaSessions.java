package org.jwd.demo;

import java.security.SecureRandom;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

/**
 * A J2EE server node's sessions, keyed by {@code JSESSIONID} (the cookie, or a {@code ;jsessionid=} path parameter).
 * SAP systems share one JSESSIONID across server nodes, so an id this node does not hold gets a new, empty session
 * under the same id: a request a dispatcher sends to the wrong node visibly loses its state. Whenever it starts a
 * session the answer sets {@code JSESSIONID=<id>} and {@code saplb_*=(<instance>)<node>} (the cookie's name is
 * literally {@code saplb_*}).
 *
 * <p>The portal page ({@link #portal}, on either type of server) sets only {@code JSESSIONID}, never {@code saplb_*}:
 * it imitates a portal that shares the session cookie's domain with the backends, the situation where a dispatcher
 * without a session table splits a user's iViews across nodes.
 */
final class JavaSessions implements SessionMechanism {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PATH_PARAMETER = ";jsessionid=";

    private final Sessions sessions;
    private final String saplbValue;

    /** @param saplbValue what this node's {@code saplb_*} cookie carries: {@code (<instance>)<node>} */
    JavaSessions(Sessions sessions, String saplbValue) {
        this.sessions = sessions;
        this.saplbValue = saplbValue;
    }

    @Override
    public Sessions.Ref session(HttpServletResponse resp, String rawPath, Map<String, String> cookies) {
        String id = jsessionId(rawPath, cookies);
        Sessions.Ref ref = sessions.lookupOrCreate(id == null ? newSessionId() : id);
        if (ref.created()) {
            resp.addHeader("Set-Cookie", "JSESSIONID=" + ref.id() + "; Path=/; HttpOnly");
            resp.addHeader("Set-Cookie", "saplb_*=" + saplbValue + "; Path=/");
        }
        return ref;
    }

    /** The portal's session: it sets only JSESSIONID (when the client has none), never saplb_*. */
    static Sessions.Ref portal(Sessions sessions, HttpServletResponse resp, String rawPath,
                               Map<String, String> cookies) {
        String id = jsessionId(rawPath, cookies);
        if (id == null) {
            id = newSessionId();
            resp.addHeader("Set-Cookie", "JSESSIONID=" + id + "; Path=/");
        }
        return sessions.lookupOrCreate(id);
    }

    /**
     * A new user's logon at the portal: a new JSESSIONID, and the {@code saplb_*} cookie of an earlier visit removed,
     * so that the portal's iViews are the first requests of their session again.
     */
    static Sessions.Ref logon(Sessions sessions, HttpServletResponse resp) {
        String id = newSessionId();
        resp.addHeader("Set-Cookie", "JSESSIONID=" + id + "; Path=/");
        resp.addHeader("Set-Cookie", "saplb_*=; Path=/; Max-Age=0");
        return sessions.lookupOrCreate(id);
    }

    /** The cookie's JSESSIONID, else the path parameter's, else {@code null}. */
    static String jsessionId(String rawPath, Map<String, String> cookies) {
        String id = cookies.get("JSESSIONID");
        if (id != null && !id.isEmpty()) {
            return id;
        }
        int i = rawPath.toLowerCase(Locale.ROOT).indexOf(PATH_PARAMETER);
        if (i < 0) {
            return null;
        }
        int start = i + PATH_PARAMETER.length();
        int end = start;
        while (end < rawPath.length() && "/;?#".indexOf(rawPath.charAt(end)) < 0) {
            end++;
        }
        return end > start ? rawPath.substring(start, end) : null;
    }

    /** 32 hexadecimal digits of randomness. */
    static String newSessionId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        StringBuilder sb = new StringBuilder(32);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }
}
