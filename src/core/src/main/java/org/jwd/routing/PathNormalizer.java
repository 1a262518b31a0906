package org.jwd.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.jwd.affinity.PathParameter;

/**
 * Reads the raw path of a request line into the one path that every prefix match decides on. The request reaches
 * the server with its path exactly as sent, as through SAP's Web Dispatcher, so this class is security-critical the
 * other way round: whatever a server could read as another path than the one jwd matched (the classic
 * {@code /public/..;/admin} bypass) is refused, and the one other reading servers are known to make (decoding
 * {@code %2F} and {@code %3B} before splitting) is given to the URL filter as {@link NormalizedPath#decodedFirst()}.
 *
 * <p>The rules, in order:
 * <ol>
 * <li>The path must start with '/'. An empty path is refused (the request line always carries one).</li>
 * <li>Every raw character must be RFC 3986's pchar, '/' or '%': a control character, a space, '\', '"', '?', '#',
 *     '|', a character outside ASCII and the like are refused, as Jetty's default URI compliance refuses them.</li>
 * <li>Segments are split on raw '/' only. In each segment the part before the first raw ';' is the name, the rest
 *     are path parameters ({@code ;jsessionid=..}, {@code ;sap-ext-sid=..}, {@code ;x=y}), kept in the order sent,
 *     of every segment, for reading session identifiers; never matched.</li>
 * <li>Each name and parameter is percent-decoded exactly once as UTF-8. Refused: '%' not followed by two hex
 *     digits, malformed, overlong or surrogate UTF-8, and a decoded NUL, '\' or control character. A decoded '/'
 *     stays {@code %2F} in the matched path: it separates no segment ({@code /sap/bc/adt/oo/classes/%2Fdmo%2Fcl}
 *     has six segments). A decoded ';' is part of the name.</li>
 * <li>URL mangling: a name {@code <name>(<part>)} ({@code sap(bD1lbiZjPTAwMQ==)}, as BSP and the Web GUI write
 *     client, language and the session into the URL) is matched as {@code <name>}, as the ICF reads it; the part is
 *     kept ({@link NormalizedPath#mangledParts()}), whatever it holds.</li>
 * <li>A name that ends with a dot or a space ({@code /nwa./x}, {@code /nwa%20/x}), other than the dot segments
 *     themselves, is refused: Windows drops trailing dots and spaces from a file or directory name, so a server on
 *     a Windows host may serve {@code /nwa/x} for it. So is a mangled one whose plain name does.</li>
 * <li>Empty and {@code .} segments are dropped, {@code ..} removes the segment before it; a {@code ..} with nothing
 *     before it escapes the root and is refused. A final empty, {@code .} or {@code ..} segment leaves a trailing
 *     '/' ({@code /a/b/..} is {@code /a/}), as in RFC 3986 section 5.2.4. Refused, because servers resolve them to
 *     different paths: a dot segment written encoded ({@code %2e%2e}: '..' to one server, a name to another), a
 *     dot segment with parameters ({@code ..;x}), and a {@code ..} that would remove an empty segment
 *     ({@code /a//../b}: {@code /a/b} by RFC 3986, {@code /b} once the empty segment is collapsed).</li>
 * </ol>
 * A decoded {@code %2e} is a dot, but a decoded {@code %252e} is the three characters {@code %2e}: decoding
 * twice is exactly the ambiguity this class exists to remove.
 *
 * <p>Cost: a path that is already canonical (pchars without ';', '(' and '%', no empty or dot segments) is checked in
 * one pass and returned as is, without allocating beyond the result. Only a path that encodes a '/' or a ';' is read
 * a second time, for {@link NormalizedPath#decodedFirst()}.
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
            return NormalizedPath.canonical(rawPath);
        }
        NormalizedPath read = read(rawPath, rawPath);
        String decodedFirst = decodedFirst(rawPath);
        if (decodedFirst == null) {
            return read;
        }
        try {
            return read.withDecodedFirst(read(decodedFirst, rawPath));
        } catch (BadPathException e) {
            throw new BadPathException(rawPath, "read as a server that decodes %2F and %3B before it splits the"
                    + " path reads it, " + e.problem());
        }
    }

    /** One reading of {@code text}; with a mangled segment, a second pass gives the literal form. */
    private static NormalizedPath read(String text, String forward) throws BadPathException {
        Parser parser = new Parser(text, true);
        String path = parser.run();
        String literal = parser.mangled == null ? path : new Parser(text, false).run();
        return new NormalizedPath(path, literal, forward,
                parser.parameters == null ? List.of() : Collections.unmodifiableList(parser.parameters),
                parser.mangled == null ? List.of() : Collections.unmodifiableList(parser.mangled), null);
    }

    /** True when reading would give the path back unchanged, with no parameter and no mangled segment. */
    private static boolean isCanonical(String raw) {
        int n = raw.length();
        int segmentStart = 1;
        for (int i = 1; i <= n; i++) {
            char c = i < n ? raw.charAt(i) : '/';
            if (c == '/') {
                int length = i - segmentStart;
                // an empty segment but the last; '.', '..' (resolved by the parser) or a name ending with '.' (refused)
                if (length == 0 ? i < n : raw.charAt(i - 1) == '.') {
                    return false;
                }
                segmentStart = i + 1;
            } else if (c == ';' || c == '(' || !PathDecoder.isPchar(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The path with {@code %2F} written '/' and {@code %3B} ';' (either case), as a server that decodes before it
     * splits reads it; {@code null} when it encodes neither. {@code %252F} stays: decoded once, it is {@code %2F}.
     */
    static String decodedFirst(String raw) {
        StringBuilder sb = null;
        int copied = 0;
        for (int i = raw.indexOf('%'); i >= 0 && i + 2 < raw.length(); i = raw.indexOf('%', i + 1)) {
            char high = raw.charAt(i + 1);
            char low = Character.toUpperCase(raw.charAt(i + 2));
            char decoded = high == '2' && low == 'F' ? '/' : high == '3' && low == 'B' ? ';' : 0;
            if (decoded != 0) {
                if (sb == null) {
                    sb = new StringBuilder(raw.length());
                }
                sb.append(raw, copied, i).append(decoded);
                copied = i + 3;
                i += 2;
            }
        }
        return sb == null ? null : sb.append(raw, copied, raw.length()).toString();
    }

    /**
     * The slow path, one instance per reading (so its decoder and buffers are never shared between threads). It
     * writes the matched path and remembers where each remaining segment starts, so that '..' is undone by
     * truncating: no per-segment objects.
     */
    private static final class Parser {
        /** A remaining empty segment, in {@link #starts}: nothing of it is in the path. */
        private static final int EMPTY = -1;

        private final String raw;
        private final boolean stripMangled;
        private final PathDecoder decoder;
        private final StringBuilder path;
        private List<PathParameter> parameters;
        private List<String> mangled;
        /** Per remaining segment, where it starts in path, or EMPTY. */
        private int[] starts = new int[8];
        private int depth;

        Parser(String raw, boolean stripMangled) {
            this.raw = raw;
            this.stripMangled = stripMangled;
            this.decoder = new PathDecoder(raw);
            this.path = new StringBuilder(raw.length() + 1);
        }

        String run() throws BadPathException {
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
                parameters(nameEnd, end);
                segment(start, nameEnd, end == n);
                done = end == n;
                start = end + 1;
            }
            return path.toString();
        }

        /** Reads the name raw[start, nameEnd) of a segment, the path's last when {@code last}. */
        private void segment(int start, int nameEnd, boolean last) throws BadPathException {
            int mark = path.length();
            path.append('/');
            decoder.decodeInto(path, start, nameEnd, true);
            int length = path.length() - mark - 1;
            boolean dot = length == 1 && path.charAt(mark + 1) == '.';
            boolean dotDot = length == 2 && path.charAt(mark + 1) == '.' && path.charAt(mark + 2) == '.';
            if (length == 0) {
                if (!last) {
                    // dropped from the matched path, but remembered: a '..' must not remove it
                    path.setLength(mark);
                    push(EMPTY);
                }
                return;
            }
            if (!dot && !dotDot) {
                named(mark);
                return;
            }
            dotSegment(start, nameEnd, mark, dotDot, last);
        }

        /** A segment with a name, decoded into path from mark on: its mangled part set apart, then checked. */
        private void named(int mark) throws BadPathException {
            // the first '(' of the name, after at least one character of it: sap(bD1l...), not (x)
            int open = stripMangled && path.charAt(path.length() - 1) == ')' ? path.indexOf("(", mark + 1) : -1;
            if (open > mark + 1) {
                if (mangled == null) {
                    mangled = new ArrayList<>(1);
                }
                mangled.add(path.substring(open + 1, path.length() - 1));
                path.setLength(open);
            }
            char lastChar = path.charAt(path.length() - 1);
            if (lastChar == '.' || lastChar == ' ') {
                throw new BadPathException(raw, "the path segment "
                        + BadPathException.quote(path.substring(mark + 1)) + " ends with "
                        + (lastChar == '.' ? "a dot" : "a space")
                        + ": a server on Windows drops it and reads another path");
            }
            push(mark);
        }

        private void dotSegment(int start, int nameEnd, int mark, boolean dotDot, boolean last)
                throws BadPathException {
            if (nameEnd - start != path.length() - mark - 1) {
                throw new BadPathException(raw, "the path has an encoded dot segment "
                        + BadPathException.quote(raw.substring(start, nameEnd))
                        + ": some servers read it as a dot segment, others as a name");
            }
            if (nameEnd < raw.length() && raw.charAt(nameEnd) == ';') {
                throw new BadPathException(raw, "the path has a dot segment with parameters"
                        + ": some servers read it as a dot segment, others as a name");
            }
            path.setLength(mark);
            if (dotDot) {
                pop();
            }
            if (last) {
                // the path names a directory: /a/b/.. is /a/
                path.append('/');
            }
        }

        private void push(int pathMark) {
            if (depth == starts.length) {
                starts = Arrays.copyOf(starts, starts.length * 2);
            }
            starts[depth++] = pathMark;
        }

        /** Undoes the last segment for a '..'; refused when there is none left, or when it is an empty one. */
        private void pop() throws BadPathException {
            if (depth == 0) {
                throw new BadPathException(raw, "the path escapes the root with '..'");
            }
            int mark = starts[--depth];
            if (mark == EMPTY) {
                throw new BadPathException(raw, "the path has '..' after an empty segment ('//'): servers that"
                        + " collapse '//' and servers that do not resolve it to different paths");
            }
            path.setLength(mark);
        }

        /**
         * Reads the parameters in raw[semicolon, end) ({@code ;a=1;b;c=}) into the list. Empty ones ({@code ;;},
         * {@code ;=}) are skipped.
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
                    parameters.add(new PathParameter(name, value));
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
