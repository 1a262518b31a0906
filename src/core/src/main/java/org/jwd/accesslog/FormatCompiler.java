package org.jwd.accesslog;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compiles a {@code LOGFORMAT} string ({@link LogFormat} lists the placeholders) into the parts that write a line:
 * literal text and one part per placeholder, each escaping what comes from the client. A wrong placeholder is
 * refused here, once, naming it.
 */
final class FormatCompiler {
    /** Headers that carry credentials or session identifiers. */
    private static final Set<String> SECRET_HEADERS = Set.of("cookie", "authorization", "proxy-authorization");
    private static final DateTimeFormatter CLF_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z",
            Locale.ENGLISH);

    /** Appends one field of an entry. */
    interface Part {
        void append(StringBuilder b, Entry e);
    }

    private final String format;
    private final ZoneId zone;
    private final List<Part> parts = new ArrayList<>();
    private final StringBuilder literal = new StringBuilder();
    /** where reading the format continues */
    private int i;

    private FormatCompiler(String format, ZoneId zone) {
        this.format = format;
        this.zone = zone;
    }

    /** @throws IllegalArgumentException naming the placeholder that is wrong */
    static Part[] compile(String format, ZoneId zone) {
        return new FormatCompiler(format, zone).compile();
    }

    private Part[] compile() {
        while (i < format.length()) {
            char c = format.charAt(i++);
            if (c == '%') {
                placeholder();
            } else {
                literal.append(c);
            }
        }
        endLiteral();
        return parts.toArray(new Part[0]);
    }

    /** What follows a '%': {@code %%}, {@code %x}, {@code %r0} to {@code %r2} or {@code %{name}x}. */
    private void placeholder() {
        if (i == format.length()) {
            throw new IllegalArgumentException("a lone '%' at its end (write %% for a percent sign)");
        }
        String argument = format.charAt(i) == '{' ? argument() : null;
        char p = format.charAt(i++);
        if (p == '%' && argument == null) {
            literal.append('%');
            return;
        }
        String variant = "";
        if (p == 'r' && i < format.length() && "012".indexOf(format.charAt(i)) >= 0
                || p == 'p' && i < format.length() && "0123".indexOf(format.charAt(i)) >= 0) {
            variant = String.valueOf(format.charAt(i++));
        }
        endLiteral();
        parts.add(argument != null ? named(argument, p) : unnamed(p, variant, zone));
    }

    /** The name between braces at i, which moves past them. */
    private String argument() {
        int close = format.indexOf('}', i);
        if (close < 0 || close + 1 == format.length()) {
            throw new IllegalArgumentException("'%" + format.substring(i) + "' is not closed: expected"
                    + " %{name}i or %{name}j");
        }
        String argument = format.substring(i + 1, close);
        i = close + 1;
        return argument;
    }

    /** The literal text since the last placeholder, as one part. */
    private void endLiteral() {
        if (!literal.isEmpty()) {
            String text = literal.toString();
            parts.add((b, e) -> b.append(text));
            literal.setLength(0);
        }
    }

    /** {@code %x}, {@code %r0}..: a placeholder without a name. */
    private static Part unnamed(char p, String variant, ZoneId zone) {
        return switch (p) {
            case 'h', 'a' -> (b, e) -> escaped(b, e.client());
            case 'H' -> (b, e) -> escaped(b, e.localHost());
            case 'S' -> (b, e) -> b.append(e.localPort());
            case 'l' -> (b, e) -> b.append('-');
            case 'u' -> (b, e) -> escaped(b, e.user());
            case 't' -> (b, e) -> b.append('[').append(CLF_TIME.format(Instant.ofEpochMilli(e.epochMillis())
                    .atZone(zone))).append(']');
            case 'T' -> (b, e) -> b.append(e.durationNanos() / 1_000_000_000L);
            case 'L' -> (b, e) -> b.append(e.durationNanos() / 1_000_000L);
            case 'D' -> (b, e) -> b.append(e.durationNanos() / 1_000L);
            case 'r' -> switch (variant) {
                case "", "0" -> (b, e) -> requestLine(b, e, uriWithQuery(e));
                case "1" -> (b, e) -> requestLine(b, e, LogFormat.redacted(e.uri()));
                default -> (b, e) -> requestLine(b, e, e.path() == null ? LogFormat.redacted(e.uri()) : e.path());
            };
            case 'U' -> (b, e) -> escaped(b, uriWithQuery(e));
            case 'p' -> sapPath(variant);
            case 'f' -> (b, e) -> escaped(b, e.path() == null ? LogFormat.redacted(e.uri()) : e.path());
            case 's' -> (b, e) -> b.append(e.status());
            case 'b' -> (b, e) -> b.append(e.bytes());
            default -> throw new IllegalArgumentException("'%" + p + "' is no placeholder: expected one of %h %a %H"
                    + " %S %l %u %t %T %L %D %r %r0 %r1 %r2 %U %f %p0 %p1 %p2 %p3 %s %b %{name}i %{name}j %%");
        };
    }

    /** SAP's {@code %p0} (= {@code %U}), {@code %p1} (without the query), {@code %p2} (= {@code %f}), {@code %p3}. */
    private static Part sapPath(String variant) {
        return switch (variant) {
            case "0" -> (b, e) -> escaped(b, uriWithQuery(e));
            case "1" -> (b, e) -> escaped(b, LogFormat.redacted(e.uri()));
            case "2" -> (b, e) -> escaped(b, decodedPath(e));
            case "3" -> (b, e) -> escaped(b, e.query() == null ? decodedPath(e)
                    : decodedPath(e) + "?" + LogFormat.redacted("?" + e.query()).substring(1));
            default -> throw new IllegalArgumentException("'%p' is no placeholder: expected %p0, %p1, %p2 or %p3");
        };
    }

    private static String decodedPath(Entry e) {
        return e.path() == null ? LogFormat.redacted(e.uri()) : e.path();
    }

    /** {@code %{name}i} (a request header) or {@code %{name}j} (jwd's own). */
    private static Part named(String argument, char p) {
        if (p == 'i') {
            String header = argument.toLowerCase(Locale.ROOT);
            if (SECRET_HEADERS.contains(header)) {
                throw new IllegalArgumentException("'%{" + argument + "}i' would write credentials or session"
                        + " identifiers into the log: it is refused (%{session}j writes the deciding one's hash)");
            }
            return (b, e) -> escaped(b, e.header().apply(argument));
        }
        if (p != 'j') {
            throw new IllegalArgumentException("'%{" + argument + "}" + p + "' is no placeholder: expected %{name}i"
                    + " (a request header) or %{name}j (server, group, reason, session, retries, wait, passport)");
        }
        return switch (argument) {
            case "server" -> (b, e) -> escaped(b, e.server());
            case "group" -> (b, e) -> escaped(b, e.group());
            case "reason" -> (b, e) -> escaped(b, e.reason());
            case "session" -> (b, e) -> escaped(b, LogFormat.sessionHash(e.identifier()));
            case "passport" -> (b, e) -> escaped(b, SapPassport.transactionId(e.header().apply(SapPassport.HEADER)));
            case "retries" -> (b, e) -> b.append(e.retries());
            case "wait" -> (b, e) -> {
                if (e.waitNanos() < 0) {
                    b.append('-');
                } else {
                    b.append(e.waitNanos() / 1_000_000L);
                }
            };
            default -> throw new IllegalArgumentException("'%{" + argument + "}j' is no jwd placeholder: expected"
                    + " %{server}j, %{group}j, %{reason}j, %{session}j, %{retries}j, %{wait}j or %{passport}j");
        };
    }

    private static void requestLine(StringBuilder b, Entry e, String uri) {
        escaped(b, e.method());
        b.append(' ');
        escaped(b, uri);
        b.append(' ');
        escaped(b, e.protocol());
    }

    private static String uriWithQuery(Entry e) {
        return LogFormat.redacted(e.query() == null ? e.uri() : e.uri() + "?" + e.query());
    }

    /** Apache's escaping; {@code -} for an absent value. */
    private static void escaped(StringBuilder b, String value) {
        if (value == null || value.isEmpty()) {
            b.append('-');
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                // A character beyond Latin-1 (never in a header or an encoded URI) is cut to its low byte.
                b.append("\\x").append(Character.forDigit((c >> 4) & 0xf, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                b.append(c);
            }
        }
    }
}
