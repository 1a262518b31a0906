package org.jwd.accesslog;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Set;

import org.jwd.affinity.MangledSegment;

/**
 * {@code LOGFORMAT}: a line of the access log from an {@link Entry}. Compiled once into parts (by
 * {@link FormatCompiler}), so a line costs one pass over them. Every value that comes from the client is escaped
 * as Apache does ({@code \"}, {@code \\}, {@code \xNN} for control and non-ASCII characters): one request is one
 * line, and the line is ASCII.
 *
 * <p>SAP's and Apache's common placeholders: {@code %h} and {@code %a} the client's address, {@code %H} the host
 * the client addressed, {@code %S} the local port, {@code %l} always {@code -}, {@code %u} the authenticated user,
 * {@code %t} the time {@code [01/Dec/2026:04:10:00 +0000]}, {@code %T} seconds, {@code %L} milliseconds,
 * {@code %D} microseconds the request took, {@code %r} or {@code %r0} the request line with the query,
 * {@code %r1} without the query, {@code %r2} with the decoded path, {@code %U} the URI with the query, {@code %f}
 * the decoded path, SAP's {@code %p0} to {@code %p3} (the URI with and without the query, the decoded path without
 * and with it), {@code %s} the status, {@code %b} the body's bytes, {@code %{name}i} a request header,
 * {@code %%} a percent sign.
 *
 * <p>jwd's own: {@code %{server}j}, {@code %{group}j}, {@code %{reason}j}, {@code %{session}j} (the first 8 hex digits
 * of the SHA-256 of the identifier that placed the request: {@code printf %s "$ID" | sha256sum | cut -c1-8} finds a
 * user's lines), {@code %{retries}j}, {@code %{wait}j} (milliseconds until the server's first byte),
 * {@code %{passport}j} (the transaction id of SAP's passport, {@link SapPassport}).
 *
 * <p>Never written: a cookie, an {@code Authorization} header (both refused as {@code %{..}i}), the values of the
 * session identifiers and {@code sap-password} in a path or query string (shown as {@code *}).
 */
public final class LogFormat {
    public static final String CLF = "CLF";
    public static final String JWD = "JWD";
    public static final String JSON = "JSON";
    /** Path parameters and query parameters whose values are secrets of the user's session. */
    private static final Set<String> SECRET_PARAMETERS = Set.of("jsessionid", "sap-ext-sid", "sap-contextid",
            "sap-password", "mysapsso2");

    private final String name;
    private final FormatCompiler.Part[] parts;
    private final boolean json;
    private final ZoneId zone;

    private LogFormat(String name, FormatCompiler.Part[] parts, boolean json, ZoneId zone) {
        this.name = name;
        this.parts = parts;
        this.json = json;
        this.zone = zone;
    }

    /**
     * @param format a predefined name ({@code CLF}, {@code CLFMOD}, {@code SAP}, {@code SAPSMD}, {@code JWD},
     *               {@code JSON}) or a format string
     * @throws IllegalArgumentException naming the placeholder that is wrong, or why a predefined format is refused
     */
    public static LogFormat of(String format) {
        return of(format, ZoneId.systemDefault());
    }

    /**
     * SAP's predefined formats with SAP's own placeholder strings, as
     * <a href="https://help.sap.com/doc/bd78479f4da741a59f5e2a418bd37908/7.4.27/en-US/d1ab8a5b7d3140fe803d004e9a5518db.html">Using
     * Predefined Log File Formats</a> gives them; jwd's own beside them.
     */
    static LogFormat of(String format, ZoneId zone) {
        String upper = format.toUpperCase(Locale.ROOT);
        return switch (upper) {
            case CLF -> compile(CLF, "%h %l %u %t \"%r\" %s %b", zone);
            case "CLFMOD" -> compile(upper, "%h %l %u %t \"%r2\" %s %b", zone);
            case "SAP" -> compile(upper, "%t %h %u - \"%r2\" %s %b %L", zone);
            case "SAPSMD" -> compile(upper, "%t - \"%r0\" %s %b [%L] h[%{X-CorrelationID}i]", zone);
            case "SAPSMD2" -> throw new IllegalArgumentException("SAP's SAPSMD2 writes every request and response"
                    + " header field, which jwd does not write (cookies and credentials among them): write SAPSMD, or"
                    + " a format string with the %{name}i fields you need");
            case JWD -> compile(JWD, "%h %l %u %t \"%r1\" %s %b %L %{group}j %{server}j \"%{reason}j\" %{session}j"
                    + " %{retries}j %{wait}j", zone);
            case JSON -> new LogFormat(JSON, new FormatCompiler.Part[0], true, zone);
            default -> {
                if (format.indexOf('%') < 0) { // a misspelt name would write itself on every line
                    throw new IllegalArgumentException("no format of that name: expected CLF, CLFMOD, SAP, SAPSMD"
                            + " (SAP's), JWD or JSON (jwd's), or a format string of placeholders such as"
                            + " %h %l %u %t \"%r\" %s %b");
                }
                yield compile(format, format, zone);
            }
        };
    }

    private static LogFormat compile(String name, String format, ZoneId zone) {
        return new LogFormat(name, FormatCompiler.compile(format, zone), false, zone);
    }

    /** The line for {@code e}, without a line separator. */
    public String format(Entry e) {
        StringBuilder b = new StringBuilder(200);
        if (json) {
            json(b, e);
        } else {
            for (FormatCompiler.Part part : parts) {
                part.append(b, e);
            }
        }
        return b.toString();
    }

    /** One JSON object per line (JSON lines), for log shippers; absent values are {@code null}. */
    private void json(StringBuilder b, Entry e) {
        b.append("{\"time\":\"").append(Instant.ofEpochMilli(e.epochMillis())).append('"');
        jsonString(b, "client", e.client());
        jsonString(b, "method", e.method());
        jsonString(b, "uri", redacted(e.uri()));
        jsonString(b, "protocol", e.protocol());
        b.append(",\"status\":").append(e.status());
        b.append(",\"bytes\":").append(e.bytes());
        b.append(",\"duration_ms\":").append(e.durationNanos() / 1_000_000L);
        jsonString(b, "group", e.group());
        jsonString(b, "server", e.server());
        jsonString(b, "reason", e.reason());
        jsonString(b, "session", sessionHash(e.identifier()));
        b.append(",\"retries\":").append(e.retries());
        b.append(",\"wait_ms\":").append(e.waitNanos() < 0 ? "null" : String.valueOf(e.waitNanos() / 1_000_000L));
        b.append('}');
    }

    private static void jsonString(StringBuilder b, String key, String value) {
        b.append(",\"").append(key).append("\":");
        if (value == null) {
            b.append("null");
            return;
        }
        b.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    /**
     * The URI with the values of session identifiers and passwords replaced by {@code *}, in path parameters
     * ({@code ;jsessionid=...}), the query ({@code ?sap-contextid=...}) and a mangled segment that carries a session
     * ({@code /sap(cz1TSUQl...)/} is written {@code /sap(*)/}). What a trace shows of a URL is redacted alike.
     */
    public static String redacted(String uri) {
        if (uri != null && uri.indexOf('(') >= 0) {
            uri = withoutMangledSessions(uri);
        }
        if (uri == null || (uri.indexOf(';') < 0 && uri.indexOf('?') < 0)) {
            return uri;
        }
        StringBuilder b = new StringBuilder(uri.length());
        int i = 0;
        while (i < uri.length()) {
            char c = uri.charAt(i);
            b.append(c);
            i++;
            if (c != ';' && c != '?' && c != '&') {
                continue;
            }
            int eq = uri.indexOf('=', i);
            int end = end(uri, i);
            if (eq < 0 || eq > end || !SECRET_PARAMETERS.contains(uri.substring(i, eq).toLowerCase(Locale.ROOT))) {
                continue;
            }
            b.append(uri, i, eq + 1).append('*');
            i = end;
        }
        return b.toString();
    }

    /** The URI with each parenthesised part of a path segment that carries a session id written {@code *}. */
    private static String withoutMangledSessions(String uri) {
        int query = uri.indexOf('?');
        int pathEnd = query < 0 ? uri.length() : query;
        StringBuilder b = null;
        int copied = 0;
        for (int open = uri.indexOf('('); open >= 0 && open < pathEnd; open = uri.indexOf('(', open + 1)) {
            int close = uri.indexOf(')', open);
            int slash = uri.indexOf('/', open);
            if (close < 0 || close > pathEnd || slash >= 0 && slash < close
                    || !MangledSegment.carriesSessionId(uri.substring(open + 1, close))) {
                continue;
            }
            b = b == null ? new StringBuilder(uri.length()) : b;
            b.append(uri, copied, open + 1).append('*');
            copied = close;
        }
        return b == null ? uri : b.append(uri, copied, uri.length()).toString();
    }

    /** Where the parameter starting at {@code from} ends. */
    private static int end(String uri, int from) {
        for (int i = from; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == ';' || c == '&' || c == '/' || c == '?' || c == '#') {
                return i;
            }
        }
        return uri.length();
    }

    /** The first 8 hex digits of the identifier's SHA-256: enough to find a session's lines, nothing to reuse. */
    static String sessionHash(String identifier) {
        if (identifier == null) {
            return null;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identifier.getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder(8);
            for (int i = 0; i < 4; i++) {
                b.append(Character.forDigit((digest[i] >> 4) & 0xf, 16)).append(Character.forDigit(digest[i] & 0xf, 16));
            }
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
