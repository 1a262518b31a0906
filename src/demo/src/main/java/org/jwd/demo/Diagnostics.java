package org.jwd.demo;

import java.io.IOException;
import java.io.InputStream;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.demo.DemoBackend.ServerType;

/**
 * The endpoints a test asks a server process what reached it, or for an answer of a given shape: {@code echo} (the
 * request as received, in JSON), {@code upload} and {@code download} (bodies checked by length and CRC32),
 * {@code status}, {@code hop} (hop-by-hop headers a proxy must drop) and {@code redirect} (an absolute
 * {@code Location} as SAP servers write it).
 */
final class Diagnostics {
    private final String id;
    private final ServerType type;

    Diagnostics(String id, ServerType type) {
        this.id = id;
        this.type = type;
    }

    /** The request as this server received it: method, raw path, query, headers, cookies, body length, session. */
    void echo(HttpServletRequest req, HttpServletResponse resp, String rawPath, Map<String, String> cookies,
              Sessions.Ref session) throws IOException {
        long bodyBytes = drain(req.getInputStream(), null);
        StringBuilder json = new StringBuilder(512);
        json.append("{\"server\":").append(Answers.jsonString(id))
                .append(",\"method\":").append(Answers.jsonString(req.getMethod()))
                .append(",\"path\":").append(Answers.jsonString(rawPath))
                .append(",\"query\":").append(Answers.jsonString(req.getQueryString()))
                .append(",\"headers\":");
        headers(req, json);
        json.append(",\"cookies\":{");
        String separator = "";
        for (Map.Entry<String, String> c : cookies.entrySet()) {
            json.append(separator).append(Answers.jsonString(c.getKey())).append(':')
                    .append(Answers.jsonString(c.getValue()));
            separator = ",";
        }
        json.append("},\"bodyBytes\":").append(bodyBytes)
                .append(",\"type\":").append(Answers.jsonString(type.label()))
                .append(",\"session\":").append(Answers.jsonString(session.id()))
                .append(",\"newSession\":").append(session.created())
                .append(",\"scheme\":").append(Answers.jsonString(req.getScheme()))
                .append(",\"protocol\":").append(Answers.jsonString(req.getProtocol()))
                .append(",\"clientCertificate\":").append(clientCertificate(req))
                .append('}');
        Answers.json(resp, 200, json.toString());
    }

    /** The subject of the certificate the client presented in the TLS handshake, as JSON; {@code null} for none. */
    private static String clientCertificate(HttpServletRequest req) {
        Object chain = req.getAttribute("jakarta.servlet.request.X509Certificate");
        return chain instanceof java.security.cert.X509Certificate[] certificates && certificates.length > 0
                ? Answers.jsonString(certificates[0].getSubjectX500Principal().getName()) : "null";
    }

    /** Every header with all its values, in the order received: {@code {"Name":["v1","v2"],...}}. */
    private static void headers(HttpServletRequest req, StringBuilder json) {
        json.append('{');
        String separator = "";
        for (Enumeration<String> names = req.getHeaderNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            json.append(separator).append(Answers.jsonString(name)).append(":[");
            separator = ",";
            String valueSeparator = "";
            for (Enumeration<String> values = req.getHeaders(name); values.hasMoreElements(); ) {
                json.append(valueSeparator).append(Answers.jsonString(values.nextElement()));
                valueSeparator = ",";
            }
            json.append(']');
        }
        json.append('}');
    }

    /**
     * A redirect to the sibling {@code next}, as absolute as an SAP server writes it: from the {@code Host} header
     * the request carries, and the protocol of SAP's {@code clientprotocol} header when present (AS Java's
     * {@code ProtocolHeaderName}), else the connection's. Behind a dispatcher that replaces {@code Host} by the
     * server's address, the browser is sent to an address it cannot reach.
     */
    static void redirect(HttpServletRequest req, HttpServletResponse resp, String path) throws IOException {
        String protocol = req.getHeader("clientprotocol");
        String scheme = protocol == null || protocol.isBlank() ? req.getScheme()
                : protocol.strip().toLowerCase(Locale.ROOT);
        String next = path.substring(0, path.lastIndexOf('/') + 1) + "next";
        resp.setHeader("Location", scheme + "://" + req.getHeader("Host") + next);
        Answers.text(resp, 302, "moved to " + next);
    }

    /** A POST or PUT body's length and CRC32. */
    void upload(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String method = req.getMethod();
        if (!method.equals("POST") && !method.equals("PUT")) {
            resp.setHeader("Allow", "POST, PUT");
            Answers.text(resp, 405, "upload needs POST or PUT, not " + method);
            return;
        }
        CRC32 crc = new CRC32();
        long bytes = drain(req.getInputStream(), crc);
        Answers.json(resp, 200, "{\"server\":" + Answers.jsonString(id) + ",\"bytes\":" + bytes
                + ",\"crc32\":\"" + DownloadPattern.hex(crc.getValue()) + "\"}");
    }

    /** {@code ?bytes=N} (1 MB by default) of {@link DownloadPattern}, with their Content-Length. */
    static void download(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long n;
        try {
            String p = req.getParameter("bytes");
            n = p == null ? 1024 * 1024 : Long.parseLong(p.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            Answers.text(resp, 400, "bytes must be a number >= 0");
            return;
        }
        resp.setStatus(200);
        resp.setContentType("application/octet-stream");
        resp.setContentLengthLong(n);
        if (!req.getMethod().equals("HEAD")) {
            DownloadPattern.write(resp.getOutputStream(), n);
        }
    }

    /**
     * Answers with hop-by-hop headers a proxy must not pass on (one named by {@code Connection}, and the standard
     * ones), next to end-to-end headers it must pass on, some with commas and quotes in their values.
     */
    void hop(HttpServletResponse resp) throws IOException {
        resp.setHeader("Connection", "X-Server-Hop");
        resp.setHeader("X-Server-Hop", "server secret");
        resp.setHeader("Keep-Alive", "timeout=5, max=100");
        resp.setHeader("Proxy-Authenticate", "Basic realm=\"server\"");
        resp.setHeader("Upgrade", "demo/1");
        resp.setHeader("Proxy-Connection", "keep-alive");
        resp.setHeader("X-End-To-End", "kept");
        // End-to-end values with commas, quotes and spaces, which a proxy passes on as they are.
        resp.setHeader("Content-Disposition", "attachment; filename=\"report, 2026.pdf\"");
        resp.setHeader("X-List", "a, \"b,c\" , d");
        resp.addHeader("X-List", "e");
        Answers.text(resp, 200, "hop from " + id);
    }

    /** {@code ?code=N} (200..599), with {@code ?location=} as its {@code Location} when given. */
    void status(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int code;
        try {
            code = Integer.parseInt(String.valueOf(req.getParameter("code")).trim());
        } catch (NumberFormatException e) {
            code = 0;
        }
        if (code < 200 || code > 599) {
            Answers.text(resp, 400, "code must be a number 200..599");
            return;
        }
        String location = req.getParameter("location");
        if (location != null) {
            resp.setHeader("Location", location);
        }
        if (code == 204 || code == 304) {
            resp.setStatus(code);
            return;
        }
        Answers.text(resp, code, "status " + code + " from " + id);
    }

    /** Reads a body to its end through a small buffer, counting (and, unless {@code null}, CRC-ing) it. */
    private static long drain(InputStream in, CRC32 crc) throws IOException {
        byte[] buf = new byte[16 * 1024];
        long count = 0;
        for (int n; (n = in.read(buf)) >= 0; ) {
            if (crc != null) {
                crc.update(buf, 0, n);
            }
            count += n;
        }
        return count;
    }
}
