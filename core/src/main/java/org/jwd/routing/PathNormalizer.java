package org.jwd.routing;

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
 * <p>Decoding is {@link PathDecoder}'s, re-encoding {@link PathEncoder}'s; this class splits the path into
 * segments and parameters and resolves the dot segments.
 *
 * <p>Cost: a path that is already canonical (ASCII pchars, no '%', ';', empty or dot segments) is checked in
 * one pass and returned as is, without allocating beyond the result.
 */
public final class PathNormalizer {
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
            } else if (!PathEncoder.isRawInName(c)) {
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
        private final PathDecoder decoder;
        private final StringBuilder path;
        private final StringBuilder forward;
        private List<NormalizedPath.Parameter> parameters;
        /** Per remaining segment, where it starts in path, in forward and in parameters. */
        private int[] starts = new int[3 * 8];
        private int depth;

        Parser(String raw) {
            this.raw = raw;
            this.decoder = new PathDecoder(raw);
            this.path = new StringBuilder(raw.length() + 1);
            this.forward = new StringBuilder(raw.length() + 16);
        }

        NormalizedPath run() throws BadPathException {
            int n = raw.length();
            int semicolon = raw.indexOf(';');
            int start = 1;
            boolean done = false;
            while (!done) {
                int end = raw.indexOf('/', start);
                if (end < 0) {
                    end = n;
                }
                if (semicolon >= 0 && semicolon < start) {
                    semicolon = raw.indexOf(';', start);
                }
                int nameEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
                done = segment(start, nameEnd, end, end == n);
                start = end + 1;
            }
            return new NormalizedPath(path.toString(), forward.toString(),
                    parameters == null ? List.of() : Collections.unmodifiableList(parameters));
        }

        /**
         * Reads the segment raw[start, end), its name ending at nameEnd, its parameters after; returns whether
         * it was the path's last.
         */
        private boolean segment(int start, int nameEnd, int end, boolean last) throws BadPathException {
            int pathMark = path.length();
            int forwardMark = forward.length();
            int parameterMark = parameterCount();
            path.append('/');
            decoder.decodeInto(path, start, nameEnd);
            int length = path.length() - pathMark - 1;
            boolean dot = length == 1 && path.charAt(pathMark + 1) == '.';
            boolean dotDot = length == 2 && path.charAt(pathMark + 1) == '.' && path.charAt(pathMark + 2) == '.';
            if (length > 0 && !dot && !dotDot) {
                push(pathMark, forwardMark, parameterMark);
                appendNamed(start, nameEnd, end, pathMark);
                return last;
            }
            path.setLength(pathMark);
            if (last && length == 0) {
                // a trailing '/' keeps its parameters: /app/;jsessionid=..
                path.append('/');
                forward.append('/');
                parameters(nameEnd, end);
                return true;
            }
            parameters(nameEnd, end); // checked, then dropped with their segment
            forward.setLength(forwardMark);
            truncateParameters(parameterMark);
            if (dotDot) {
                pop();
            }
            if (last) {
                // the path names a directory: /a/b/.. is /a/
                path.append('/');
                forward.append('/');
            }
            return last;
        }

        /** Forwards a segment that has a name, already decoded into path from pathMark on, with its parameters. */
        private void appendNamed(int start, int nameEnd, int end, int pathMark) throws BadPathException {
            char lastChar = path.charAt(path.length() - 1);
            if (lastChar == '.' || lastChar == ' ') {
                throw new BadPathException(raw, "the path segment "
                        + BadPathException.quote(path.substring(pathMark + 1)) + " ends with "
                        + (lastChar == '.' ? "a dot" : "a space")
                        + ": a server on Windows drops it and reads another path");
            }
            forward.append('/');
            if (indexOf('%', start, nameEnd) == nameEnd) {
                // decoding changed nothing: encode from the String, cheaper to read than the builder
                PathEncoder.appendName(forward, raw, start, nameEnd);
            } else {
                PathEncoder.appendName(forward, path, pathMark + 1, path.length());
            }
            parameters(nameEnd, end);
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

        /** Undoes the last named segment for a '..'; refused when there is none left. */
        private void pop() throws BadPathException {
            if (depth == 0) {
                throw new BadPathException(raw, "the path escapes the root with '..'");
            }
            depth--;
            path.setLength(starts[3 * depth]);
            forward.setLength(starts[3 * depth + 1]);
            truncateParameters(starts[3 * depth + 2]);
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
                String name = decoder.decode(start, equals);
                String value = equals < stop ? decoder.decode(equals + 1, stop) : "";
                if (!name.isEmpty() || !value.isEmpty()) {
                    if (parameters == null) {
                        parameters = new ArrayList<>(2);
                    }
                    parameters.add(new NormalizedPath.Parameter(name, value));
                    forward.append(';');
                    PathEncoder.appendParameterName(forward, name);
                    if (!value.isEmpty()) {
                        forward.append('=');
                        PathEncoder.appendName(forward, value, 0, value.length());
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
    }
}
