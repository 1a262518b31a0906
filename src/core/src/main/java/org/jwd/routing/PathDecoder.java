package org.jwd.routing;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Percent-decodes pieces of one raw path exactly once, strictly, as UTF-8: every rule of
 * {@link PathNormalizer} about characters is enforced here, raw and decoded. One instance per path, so its
 * decoder and buffers are never shared between threads.
 */
final class PathDecoder {
    /** RFC 3986's pchar without '%': what a path segment may carry unencoded (';' and '=' included). */
    private static final boolean[] PCHAR = new boolean[128];

    static {
        String unreservedSubDelimsColonAt = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
                + "!$&'()*+,;=:@";
        for (char c : unreservedSubDelimsColonAt.toCharArray()) {
            PCHAR[c] = true;
        }
    }

    private final String raw;
    private StringBuilder scratch;
    private byte[] bytes;
    private CharsetDecoder utf8;

    PathDecoder(String raw) {
        this.raw = raw;
    }

    /** Whether c may stand unencoded in a path segment (RFC 3986's pchar, '%' aside). */
    static boolean isPchar(char c) {
        return c < 128 && PCHAR[c];
    }

    /** raw[from, to) decoded, as a new String; an encoded '/' is a '/'. */
    String decode(int from, int to) throws BadPathException {
        if (scratch == null) {
            scratch = new StringBuilder();
        }
        scratch.setLength(0);
        decodeInto(scratch, from, to, false);
        return scratch.toString();
    }

    /**
     * Appends raw[from, to) decoded.
     *
     * @param slashEncoded write a decoded '/' as {@code %2F}: in a segment's name it is no separator, and the
     *                     matched path must not read it as one
     */
    void decodeInto(StringBuilder sb, int from, int to, boolean slashEncoded) throws BadPathException {
        int i = from;
        while (i < to) {
            // copy the run up to the next '%' in one append; only characters outside pchar get the full check
            int run = i;
            while (i < to && raw.charAt(i) != '%') {
                char c = raw.charAt(i);
                if (!isPchar(c)) {
                    checkRaw(c);
                }
                i++;
            }
            sb.append(raw, run, i);
            if (i < to) {
                i = decodeRun(i, to, sb, slashEncoded);
            }
        }
    }

    /**
     * Refuses a raw character outside pchar: what Jetty's default URI compliance refuses too, and what would not
     * reach the server as it came (the request is forwarded with the path exactly as received).
     */
    private void checkRaw(char c) throws BadPathException {
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
        if (c >= 128) {
            throw new BadPathException(raw, "the path contains a character outside ASCII: expected it"
                    + " percent-encoded as UTF-8");
        }
        throw new BadPathException(raw, "the path contains the character '" + c + "': expected it percent-encoded"
                + " (%" + HexFormat.of().withUpperCase().toHexDigits((byte) c) + ")");
    }

    /** Decodes the run of %XX starting at i as one UTF-8 sequence; returns the index after it. */
    private int decodeRun(int i, int to, StringBuilder sb, boolean slashEncoded) throws BadPathException {
        int count = readEncodedBytes(i, to);
        int before = sb.length();
        appendUtf8(sb, count, slashEncoded);
        for (int k = before; k < sb.length(); k++) {
            if (Character.isISOControl(sb.charAt(k))) {
                throw new BadPathException(raw, "the path contains an encoded control character");
            }
        }
        return i + 3 * count;
    }

    /** Reads the %XX run starting at i into bytes; returns how many it read. */
    private int readEncodedBytes(int i, int to) throws BadPathException {
        if (bytes == null) {
            bytes = new byte[raw.length() / 3 + 1];
        }
        int count = 0;
        for (; i < to && raw.charAt(i) == '%'; i += 3) {
            bytes[count++] = (byte) encodedByte(i, to);
        }
        return count;
    }

    /** The byte that the %XX at i stands for; refused when it is no %XX or one that two servers read apart. */
    private int encodedByte(int i, int to) throws BadPathException {
        int high = i + 2 < to ? hexValue(raw.charAt(i + 1)) : -1;
        int low = i + 2 < to ? hexValue(raw.charAt(i + 2)) : -1;
        if (high < 0 || low < 0) {
            throw new BadPathException(raw, "invalid percent-encoding at index " + i
                    + ": expected '%' and two hex digits");
        }
        int b = high << 4 | low;
        if (b == 0) {
            throw new BadPathException(raw, "the path contains an encoded NUL (%00)");
        }
        if (b == '\\') {
            // servers on Windows read it as a '/': unlike %2F, it is no reserved character a client needs
            throw new BadPathException(raw, "the path contains an encoded backslash (%5C)");
        }
        return b;
    }

    /** ASCII hex digits only (as HexFormat reads them): Character.digit would also take fullwidth ones. */
    private static int hexValue(char c) {
        return HexFormat.isHexDigit(c) ? HexFormat.fromHexDigit(c) : -1;
    }

    private void appendUtf8(StringBuilder sb, int count, boolean slashEncoded) throws BadPathException {
        boolean ascii = true;
        for (int k = 0; k < count; k++) {
            ascii &= bytes[k] >= 0;
        }
        if (ascii) {
            for (int k = 0; k < count; k++) {
                if (slashEncoded && bytes[k] == '/') {
                    sb.append("%2F");
                } else {
                    sb.append((char) bytes[k]);
                }
            }
            return;
        }
        if (utf8 == null) {
            // REPORT makes overlong forms (%c0%af), encoded surrogates and stray bytes errors
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            CharBuffer chars = utf8.reset().decode(ByteBuffer.wrap(bytes, 0, count));
            while (chars.hasRemaining()) {
                char c = chars.get();
                if (slashEncoded && c == '/') {
                    sb.append("%2F");
                } else {
                    sb.append(c);
                }
            }
        } catch (CharacterCodingException e) {
            throw new BadPathException(raw, "the path's percent-encoding is not valid UTF-8");
        }
    }
}
