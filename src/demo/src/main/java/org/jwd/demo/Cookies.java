package org.jwd.demo;

import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

/**
 * A request's cookies, read from the raw {@code Cookie} header by hand, so that SAP's names and values
 * ({@code saplb_*}, {@code (J2EE…)node}) are seen exactly as sent, whatever Jetty's cookie compliance thinks of them.
 */
final class Cookies {
    private Cookies() {
    }

    /** Every cookie of the request's {@code Cookie} headers by name; the first of a name wins. */
    static Map<String, String> of(HttpServletRequest req) {
        Map<String, String> result = new LinkedHashMap<>();
        Enumeration<String> headers = req.getHeaders("Cookie");
        while (headers != null && headers.hasMoreElements()) {
            for (String part : headers.nextElement().split(";")) {
                String p = part.trim();
                if (!p.isEmpty()) {
                    int eq = p.indexOf('=');
                    String name = eq < 0 ? p : p.substring(0, eq).trim();
                    result.putIfAbsent(name, eq < 0 ? "" : unquoted(p.substring(eq + 1)));
                }
            }
        }
        return result;
    }

    private static String unquoted(String value) {
        String v = value.trim();
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }
}
