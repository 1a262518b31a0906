package org.jwd.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

/** How the administration interface writes its answers: JSON, text, and the headers every answer carries. */
final class AdminResponses {
    private static final String JSON = "application/json;charset=utf-8";

    private AdminResponses() {
    }

    /** Whether {@code method} is one of {@code allowed}; if not, answers 405 with {@code Allow}. */
    static boolean allowed(String method, HttpServletResponse response, String... allowed) throws IOException {
        for (String a : allowed) {
            if (a.equals(method)) {
                return true;
            }
        }
        response.setHeader("Allow", String.join(", ", allowed));
        sendJson(response, AdminApi.Answer.error(405, method + " is not allowed here: " + String.join(", ", allowed)));
        return false;
    }

    /** The page may not be framed, sniffed, or load anything but its own files. */
    static void securityHeaders(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "
                + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'");
    }

    static void sendJson(HttpServletResponse response, AdminApi.Answer answer) throws IOException {
        sendJson(response, answer.status(), answer.body());
    }

    static void sendJson(HttpServletResponse response, int status, Object body) throws IOException {
        byte[] bytes = (AdminJson.write(body) + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(JSON);
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    static void sendText(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    static void sendBytes(HttpServletResponse response, String contentType, byte[] body) throws IOException {
        response.setStatus(200);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-cache");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
