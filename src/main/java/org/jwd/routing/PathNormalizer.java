package org.jwd.routing;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Turns the raw path of a request line into the one path that routing decides on and the server receives.
 * Security-critical: if jwd and the server read a path differently, a request routed as one application
 * reaches another (the classic {@code /public/..;/admin} bypass). So jwd decides on a single reading and
 * forwards exactly that reading, re-encoded; whatever could be read two ways is refused.
 *
 * <p>The rules, in order:
 * <ol>
 * <li>The path must start with '/'. An empty path is refused (the request line always carries one).</li>
 * <li>Refused raw characters: control characters (C0, DEL, C1, including NUL), '\' (Windows servers read
 *     it as '/'), '?' and '#' (the caller passes the path without query; either means it did not).</li>
 * <li>Segments are split on raw '/' only. In each segment the part before the first raw ';' is the name,
 *     the rest are path parameters ({@code ;jsessionid=..}, {@code ;x=y}): kept for forwarding, not matched.
 *     The name decides what the segment is, so {@code ..;x=y} is a dot-dot segment, as Tomcat reads it.</li>
 * <li>Each name and parameter is percent-decoded exactly once as UTF-8. Refused: '%' not followed by two hex
 *     digits, malformed, overlong or surrogate UTF-8, and decoded NUL, '/', '\', ';' or control characters. An
 *     encoded '/' would make one segment two on a server that decodes before splitting; an encoded ';'
 *     ({@code %3B}) is a literal to one server and a path parameter to another, which decodes first and then
 *     strips {@code ;x}: {@code /nwa%3Bx/y} would be {@code /nwa/y} there.</li>
 * <li>A segment name that ends with a dot or a space ({@code /nwa./x}, {@code /nwa%20/x}), other than the dot
 *     segments themselves, is refused: Windows drops trailing dots and spaces from a file or directory name, so
 *     a server on a Windows host may serve {@code /nwa/x} for it while the filter and the URL mapping table saw
 *     another path. Such names are rare in URLs and cannot be written in a Windows file system at all.</li>
 * <li>Empty and {@code .} segments are dropped, {@code ..} removes the segment before it; a {@code ..} with
 *     nothing before it escapes the root and is refused. A final empty, {@code .} or {@code ..} segment
 *     leaves a trailing '/' ({@code /a/b/..} is {@code /a/}), as in RFC 3986 section 5.2.4. Parameters of
 *     dropped segments are dropped with them, except those of a final empty segment ({@code /app/;jsessionid=1}).</li>
 * </ol>
 * A decoded {@code %2e} is a dot, but a decoded {@code %252e} is the three characters {@code %2e}: decoding
 * twice is exactly the ambiguity this class exists to remove.
 *
 * <p>Cost: a path that is already canonical (ASCII pchars, no '%', ';', empty or dot segments) is checked in
 * one pass and returned as is, without allocating beyond the result.
 */
public final class PathNormalizer {
    /** Characters a segment name may carry unencoded: RFC 3986 pchar without ';' (our parameter separator). */
    private static final boolean[] NAME_RAW = new boolean[128];
    /** A parameter's name: as a segment name, without '=' (which ends the name). */
    private static final boolean[] PARAM_NAME_RAW = new boolean[128];
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    static {
        String unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
        String subDelimsButSemicolon = "!$&'()*+,=";
        for (char c : (unreserved + subDelimsButSemicolon + ":@").toCharArray()) {
            NAME_RAW[c] = true;
            PARAM_NAME_RAW[c] = true;
        }
        PARAM_NAME_RAW['='] = false;
    }

    private PathNormalizer() {
    }

    /**
     * @param rawPath the path as received on the request line: still percent-encoded, without the query
     * @throws BadPathException when the path breaks one of the rules above; answer 400, forward nothing
     */
    public static NormalizedPath normalize(String rawPath) throws BadPathException {
        if (rawPath == null || rawPath.isEmpty()) {
            throw new BadPathException(rawPath, "empty path: expected one starting with '/'");
        }
        if (rawPath.charAt(0) != '/') {
            throw new BadPathException(rawPath, "the path does not start with '/'");
        }
        if (isCanonical(rawPath)) {
            return new NormalizedPath(rawPath, rawPath, List.of());
        }
        return new Parser(rawPath).run();
    }

    /** True when decoding, resolving and re-encoding would give the path back unchanged. */
    private static boolean isCanonical(String raw) {
        int n = raw.length();
        int segmentStart = 1;
        for (int i = 1; i <= n; i++) {
            char c = i < n ? raw.charAt(i) : '/';
            if (c == '/') {
                int length = i - segmentStart;
                // an empty segment; '.', '..' (resolved by the parser) or another name ending with '.' (refused)
                if (length == 0 && i < n || length > 0 && raw.charAt(i - 1) == '.') {
                    return false;
                }
                segmentStart = i + 1;
            } else if (c >= 128 || !NAME_RAW[c]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The slow path, one instance per call (so its decoder and buffers are never shared between threads).
     * It writes the matched path and the forwarded path side by side and remembers where each remaining
     * segment starts in both, so that '..' is undone by truncating: no per-segment objects.
     */
    private static final class Parser {
        private final String raw;
        private final StringBuilder path;
        private final StringBuilder forward;
        private StringBuilder scratch;
        private List<NormalizedPath.Parameter> parameters;
        /** Per remaining segment, where it starts in path, in forward and in parameters. */
        private int[] starts = new int[3 * 8];
        private int depth;
        private byte[] bytes;
        private CharsetDecoder utf8;

        Parser(String raw) {
            this.raw = raw;
            this.path = new StringBuilder(raw.length() + 1);
            this.forward = new StringBuilder(raw.length() + 16);
        }

        NormalizedPath run() throws BadPathException {
            int n = raw.length();
            int semicolon = raw.indexOf(';');
            int start = 1;
            while (true) {
                int end = raw.indexOf('/', start);
                if (end < 0) {
                    end = n;
                }
                if (semicolon >= 0 && semicolon < start) {
                    semicolon = raw.indexOf(';', start);
                }
                int nameEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
                boolean last = end == n;
                int pathMark = path.length();
                int forwardMark = forward.length();
                int parameterMark = parameterCount();
                path.append('/');
                decodeInto(path, start, nameEnd);
                int length = path.length() - pathMark - 1;
                boolean dot = length == 1 && path.charAt(pathMark + 1) == '.';
                boolean dotDot = length == 2 && path.charAt(pathMark + 1) == '.' && path.charAt(pathMark + 2) == '.';
                if (length > 0 && !dot && !dotDot) {
                    char lastChar = path.charAt(path.length() - 1);
                    if (lastChar == '.' || lastChar == ' ') {
                        throw new BadPathException(raw, "the path segment "
                                + BadPathException.quote(path.substring(pathMark + 1)) + " ends with "
                                + (lastChar == '.' ? "a dot" : "a space")
                                + ": a server on Windows drops it and reads another path");
                    }
                    push(pathMark, forwardMark, parameterMark);
                    forward.append('/');
                    if (indexOf('%', start, nameEnd) == nameEnd) {
                        // decoding changed nothing: encode from the String, cheaper to read than the builder
                        encode(forward, raw, start, nameEnd, NAME_RAW);
                    } else {
                        encode(forward, path, pathMark + 1, path.length(), NAME_RAW);
                    }
                    parameters(nameEnd, end);
                } else {
                    path.setLength(pathMark);
                    if (last && length == 0) {
                        // a trailing '/' keeps its parameters: /app/;jsessionid=..
                        path.append('/');
                        forward.append('/');
                        parameters(nameEnd, end);
                        break;
                    }
                    parameters(nameEnd, end); // checked, then dropped with their segment
                    forward.setLength(forwardMark);
                    truncateParameters(parameterMark);
                    if (dotDot) {
                        if (depth == 0) {
                            throw new BadPathException(raw, "the path escapes the root with '..'");
                        }
                        depth--;
                        path.setLength(starts[3 * depth]);
                        forward.setLength(starts[3 * depth + 1]);
                        truncateParameters(starts[3 * depth + 2]);
                    }
                    if (last) {
                        // the path names a directory: /a/b/.. is /a/
                        path.append('/');
                        forward.append('/');
                        break;
                    }
                }
                if (last) {
                    break;
                }
                start = end + 1;
            }
            return new NormalizedPath(path.toString(), forward.toString(),
                    parameters == null ? List.of() : Collections.unmodifiableList(parameters));
        }

        private void push(int pathMark, int forwardMark, int parameterMark) {
            if (3 * depth == starts.length) {
                starts = Arrays.copyOf(starts, starts.length * 2);
            }
            starts[3 * depth] = pathMark;
            starts[3 * depth + 1] = forwardMark;
            starts[3 * depth + 2] = parameterMark;
            depth++;
        }

        private int parameterCount() {
            return parameters == null ? 0 : parameters.size();
        }

        private void truncateParameters(int count) {
            if (parameters != null && parameters.size() > count) {
                parameters.subList(count, parameters.size()).clear();
            }
        }

        /**
         * Reads the parameters in raw[semicolon, end) ({@code ;a=1;b;c=}) into the list and the forwarded path.
         * Empty ones ({@code ;;}, {@code ;=}) are dropped; an empty value is forwarded without '=', so that
         * the forwarded form reads back the same.
         */
        private void parameters(int semicolon, int end) throws BadPathException {
            int start = semicolon + 1;
            while (start <= end) {
                int stop = indexOf(';', start, end);
                int equals = indexOf('=', start, stop);
                String name = decode(start, equals);
                String value = equals < stop ? decode(equals + 1, stop) : "";
                if (!name.isEmpty() || !value.isEmpty()) {
                    if (parameters == null) {
                        parameters = new ArrayList<>(2);
                    }
                    parameters.add(new NormalizedPath.Parameter(name, value));
                    forward.append(';');
                    encode(forward, name, 0, name.length(), PARAM_NAME_RAW);
                    if (!value.isEmpty()) {
                        forward.append('=');
                        encode(forward, value, 0, value.length(), NAME_RAW);
                    }
                }
                start = stop + 1;
            }
        }

        /** The first c in raw[from, to), or to: bounded, so that many parameters cost linear time. */
        private int indexOf(char c, int from, int to) {
            for (int i = from; i < to; i++) {
                if (raw.charAt(i) == c) {
                    return i;
                }
            }
            return to;
        }

        private String decode(int from, int to) throws BadPathException {
            if (scratch == null) {
                scratch = new StringBuilder();
            }
            scratch.setLength(0);
            decodeInto(scratch, from, to);
            return scratch.toString();
        }

        /** Appends raw[from, to) percent-decoded once, strictly; every rule about characters is enforced here. */
        private void decodeInto(StringBuilder sb, int from, int to) throws BadPathException {
            int i = from;
            while (i < to) {
                // copy the run up to the next '%' in one append; only suspicious characters get the full check
                int run = i;
                while (i < to && raw.charAt(i) != '%') {
                    char c = raw.charAt(i);
                    if (c < 0x20 || c >= 0x7F || c == '\\' || c == '?' || c == '#') {
                        checkRaw(c, i, to);
                    }
                    i++;
                }
                sb.append(raw, run, i);
                if (i < to) {
                    i = decodeRun(i, to, sb);
                }
            }
        }

        private void checkRaw(char c, int i, int to) throws BadPathException {
            if (c == '\\') {
                throw new BadPathException(raw, "the path contains a backslash");
            }
            if (Character.isISOControl(c)) {
                throw new BadPathException(raw, c == 0 ? "the path contains a NUL character"
                        : "the path contains a control character");
            }
            if (c == '?' || c == '#') {
                throw new BadPathException(raw, "the path contains '" + c + "': expected the path without query");
            }
            if (Character.isHighSurrogate(c) ? i + 1 >= to || !Character.isLowSurrogate(raw.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(raw.charAt(i - 1)))) {
                throw new BadPathException(raw, "the path contains an unpaired surrogate character");
            }
        }

        /** Decodes the run of %XX starting at i as one UTF-8 sequence; returns the index after it. */
        private int decodeRun(int i, int to, StringBuilder sb) throws BadPathException {
            if (bytes == null) {
                bytes = new byte[raw.length() / 3 + 1];
            }
            int count = 0;
            boolean ascii = true;
            while (i < to && raw.charAt(i) == '%') {
                int high = i + 2 < to ? hex(raw.charAt(i + 1)) : -1;
                int low = i + 2 < to ? hex(raw.charAt(i + 2)) : -1;
                if (high < 0 || low < 0) {
                    throw new BadPathException(raw, "invalid percent-encoding at index " + i
                            + ": expected '%' and two hex digits");
                }
                int b = high << 4 | low;
                switch (b) {
                    case 0 -> throw new BadPathException(raw, "the path contains an encoded NUL (%00)");
                    case '/' -> throw new BadPathException(raw, "the path contains an encoded slash (%2F)");
                    case '\\' -> throw new BadPathException(raw, "the path contains an encoded backslash (%5C)");
                    case ';' -> throw new BadPathException(raw, "the path contains an encoded semicolon (%3B): a"
                            + " server may read it as a path parameter or as part of the name");
                    default -> {
                    }
                }
                ascii &= b < 0x80;
                bytes[count++] = (byte) b;
                i += 3;
            }
            int before = sb.length();
            if (ascii) {
                for (int k = 0; k < count; k++) {
                    sb.append((char) bytes[k]);
                }
            } else {
                if (utf8 == null) {
                    // REPORT makes overlong forms (%c0%af), encoded surrogates and stray bytes errors
                    utf8 = StandardCharsets.UTF_8.newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT);
                }
                try {
                    CharBuffer chars = utf8.reset().decode(ByteBuffer.wrap(bytes, 0, count));
                    sb.append(chars);
                } catch (CharacterCodingException e) {
                    throw new BadPathException(raw, "the path's percent-encoding is not valid UTF-8");
                }
            }
            for (int k = before; k < sb.length(); k++) {
                if (Character.isISOControl(sb.charAt(k))) {
                    throw new BadPathException(raw, "the path contains an encoded control character");
                }
            }
            return i;
        }

        /** ASCII hex digits only: Character.digit would also take non-ASCII digits such as fullwidth ones. */
        private static int hex(char c) {
            if (c >= '0' && c <= '9') {
                return c - '0';
            }
            if (c >= 'a' && c <= 'f') {
                return c - 'a' + 10;
            }
            if (c >= 'A' && c <= 'F') {
                return c - 'A' + 10;
            }
            return -1;
        }

        /** Appends s[from, to) percent-encoding every character not allowed raw, and '%' itself, as UTF-8. */
        private static void encode(StringBuilder sb, CharSequence s, int from, int to, boolean[] allowedRaw) {
            int i = from;
            while (i < to) {
                // most characters need no encoding: find the run and append it at once
                int run = i;
                while (i < to && s.charAt(i) < 128 && allowedRaw[s.charAt(i)]) {
                    i++;
                }
                if (i > run) {
                    sb.append(s, run, i);
                }
                if (i == to) {
                    break;
                }
                int cp = Character.codePointAt(s, i);
                i += Character.charCount(cp);
                if (cp < 0x80) {
                    appendByte(sb, cp);
                } else if (cp < 0x800) {
                    appendByte(sb, 0xC0 | cp >> 6);
                    appendByte(sb, 0x80 | cp & 0x3F);
                } else if (cp < 0x10000) {
                    appendByte(sb, 0xE0 | cp >> 12);
                    appendByte(sb, 0x80 | cp >> 6 & 0x3F);
                    appendByte(sb, 0x80 | cp & 0x3F);
                } else {
                    appendByte(sb, 0xF0 | cp >> 18);
                    appendByte(sb, 0x80 | cp >> 12 & 0x3F);
                    appendByte(sb, 0x80 | cp >> 6 & 0x3F);
                    appendByte(sb, 0x80 | cp & 0x3F);
                }
            }
        }

        private static void appendByte(StringBuilder sb, int b) {
            sb.append('%').append(HEX[b >> 4 & 0xF]).append(HEX[b & 0xF]);
        }
    }
}
