package org.jwd.demo;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.servlet.http.HttpServletResponse;

/**
 * An ABAP server's sessions, keyed by the {@code sap-contextid} cookie's value; a request without one gets
 * {@code sap-contextid=SID%3aANON%3a<name>%3a<n>-NEW}, whose server name a dispatcher reads. A session id in a
 * mangled URL segment ({@link BspPage}: sessions without cookies) comes first.
 */
final class AbapSessions implements SessionMechanism {
    private final Sessions sessions;
    private final String name;
    private final AtomicLong contexts = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L);

    /** @param name the server's name inside {@code sap-contextid} ({@code <host>_<SID>_<nr>}) */
    AbapSessions(Sessions sessions, String name) {
        this.sessions = sessions;
        this.name = name;
    }

    @Override
    public Sessions.Ref session(HttpServletResponse resp, String rawPath, Map<String, String> cookies) {
        String fromUrl = BspPage.sessionFromUrl(rawPath);
        if (fromUrl != null) {
            return sessions.lookupOrCreate(fromUrl);
        }
        String context = cookies.get("sap-contextid");
        if (context == null || context.isEmpty()) {
            context = "SID%3aANON%3a" + name + "%3a" + contexts.incrementAndGet() + "-NEW";
            resp.addHeader("Set-Cookie", "sap-contextid=" + context + "; Path=/");
        }
        return sessions.lookupOrCreate(context);
    }
}
