package org.jwd.demo;

import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

/**
 * How a server process finds, or starts, the session of a request: as SAP's J2EE engine does ({@link JavaSessions})
 * or an ABAP server ({@link AbapSessions}). Whatever starts a session sets its cookies on the answer.
 */
interface SessionMechanism {
    /**
     * @param rawPath the request's path as sent, with its path parameters and mangled segments
     * @param cookies the request's cookies ({@link Cookies#of})
     */
    Sessions.Ref session(HttpServletResponse resp, String rawPath, Map<String, String> cookies);
}
