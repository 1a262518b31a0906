package org.jwd.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;

/**
 * A request's path as a demo server reads it. Endpoints are named by the last segment (an iView by the last two), so
 * any prefix a dispatcher routes on works: {@code /echo}, {@code /sap/bc/echo} and {@code /irj/echo} all echo.
 *
 * @param raw      the path as sent, with path parameters ({@code ;jsessionid=...}) and mangled segments
 * @param path     the path without path parameters: what the per-path request counts are kept by
 * @param segments the path's non-empty segments
 */
record RequestPath(String raw, String path, List<String> segments) {
    RequestPath {
        segments = List.copyOf(segments);
    }

    static RequestPath of(HttpServletRequest req) {
        String raw = req.getRequestURI() == null ? "/" : req.getRequestURI();
        String path = withoutPathParameters(raw);
        List<String> segments = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                segments.add(s);
            }
        }
        return new RequestPath(raw, path, segments);
    }

    /** The last segment in lower case, the endpoint's name; empty for {@code /}. */
    String last() {
        return segment(1).toLowerCase(Locale.ROOT);
    }

    /** Whether the path ends in {@code .../iview/<name>}. */
    boolean isIview() {
        return segment(2).equalsIgnoreCase("iview");
    }

    /** The iView's name as written: the last segment. */
    String iview() {
        return segment(1);
    }

    private String segment(int fromEnd) {
        return segments.size() < fromEnd ? "" : segments.get(segments.size() - fromEnd);
    }

    private static String withoutPathParameters(String raw) {
        if (raw.indexOf(';') < 0) {
            return raw;
        }
        StringBuilder sb = new StringBuilder(raw.length());
        boolean inParameter = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == ';') {
                inParameter = true;
            } else if (c == '/') {
                inParameter = false;
                sb.append(c);
            } else if (!inParameter) {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
