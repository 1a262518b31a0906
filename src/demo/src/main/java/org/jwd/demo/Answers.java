package org.jwd.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import jakarta.servlet.http.HttpServletResponse;

/** How a demo server writes an answer (text, JSON or HTML, with its length), and escapes what goes into one. */
final class Answers {
    private Answers() {
    }

    static void text(HttpServletResponse resp, int status, String body) throws IOException {
        write(resp, status, "text/plain;charset=utf-8", body + "\n");
    }

    static void json(HttpServletResponse resp, int status, String body) throws IOException {
        write(resp, status, "application/json;charset=utf-8", body);
    }

    static void html(HttpServletResponse resp, int status, String body) throws IOException {
        write(resp, status, "text/html;charset=utf-8", body);
    }

    private static void write(HttpServletResponse resp, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        resp.setStatus(status);
        resp.setContentType(contentType);
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    /** A JSON string literal, or {@code null}. */
    static String jsonString(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** Text made safe for HTML content and attribute values. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
