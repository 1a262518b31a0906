package org.jwd.bench;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Reads one HTTP/1.1 response from bytes as they arrive, in pieces of any size, for {@link IdleConnections}: the
 * status line, the headers, then the body by its {@code Content-Length} or its chunks (with any trailers); interim
 * 1xx answers are skipped. A body without either runs until the server closes, and a {@code Connection: close}
 * answer ends its connection too: both are answers after which the connection cannot be held.
 */
final class ResponseParser {
    /** A line longer than this is not HTTP any server here sends: the answer is refused as malformed. */
    private static final int MAX_LINE = 16 * 1024;

    private enum State { STATUS, HEADERS, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, UNTIL_CLOSE, DONE }

    private final StringBuilder line = new StringBuilder();
    private State state = State.STATUS;
    private int status;
    private boolean close;
    private boolean chunked;
    private long remaining = -1;

    /**
     * Consumes bytes of {@code in} up to the end of the response (what follows it stays in the buffer).
     *
     * @return whether the response is complete
     * @throws IllegalArgumentException naming what is malformed
     */
    boolean feed(ByteBuffer in) {
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case BODY, CHUNK_DATA -> skipBody(in);
                case UNTIL_CLOSE -> in.position(in.limit());
                default -> {
                    if (readLine(in)) {
                        onLine(line.toString());
                        line.setLength(0);
                    }
                }
            }
        }
        return state == State.DONE;
    }

    /** Whether the answer's end is the connection's end: no length (read until the server closes). */
    boolean endsAtClose() {
        return state == State.UNTIL_CLOSE;
    }

    int status() {
        return status;
    }

    /** Whether the server said it closes the connection after this answer ({@code Connection: close}). */
    boolean closes() {
        return close;
    }

    private boolean readLine(ByteBuffer in) {
        while (in.hasRemaining()) {
            char c = (char) (in.get() & 0xff);
            if (c == '\n') {
                if (!line.isEmpty() && line.charAt(line.length() - 1) == '\r') {
                    line.setLength(line.length() - 1);
                }
                return true;
            }
            if (line.length() >= MAX_LINE) {
                throw new IllegalArgumentException("a line of the answer is longer than " + MAX_LINE + " bytes");
            }
            line.append(c);
        }
        return false;
    }

    private void onLine(String text) {
        switch (state) {
            case STATUS -> status(text);
            case HEADERS -> {
                if (text.isEmpty()) {
                    endOfHeaders();
                } else {
                    header(text);
                }
            }
            case CHUNK_SIZE -> chunkSize(text);
            case CHUNK_END -> {
                if (!text.isEmpty()) {
                    throw new IllegalArgumentException("no CRLF after a chunk's data: '" + text + "'");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> state = text.isEmpty() ? State.DONE : State.TRAILERS;
            default -> throw new IllegalStateException(state.toString());
        }
    }

    private void status(String text) {
        if (text.isEmpty() && status == 0) {
            return; // a blank line before the status line is tolerated (RFC 9112, 2.2)
        }
        String[] parts = text.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("\\d{3}")) {
            throw new IllegalArgumentException("not an HTTP/1.x status line: '" + text + "'");
        }
        status = Integer.parseInt(parts[1]);
        close = parts[0].equals("HTTP/1.0");
        chunked = false;
        remaining = -1;
        state = State.HEADERS;
    }

    private void header(String text) {
        int colon = text.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("not a header line: '" + text + "'");
        }
        String name = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = text.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
        switch (name) {
            case "content-length" -> {
                try {
                    remaining = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Content-Length is not a number: '" + value + "'");
                }
            }
            case "transfer-encoding" -> chunked = value.endsWith("chunked");
            case "connection" -> close = value.contains("close") || close && !value.contains("keep-alive");
            default -> { }
        }
    }

    private void endOfHeaders() {
        if (status < 200) {
            state = State.STATUS; // an interim answer (100 Continue, 103 Early Hints): the real one follows
        } else if (status == 204 || status == 304) {
            state = State.DONE;
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (remaining >= 0) {
            state = remaining == 0 ? State.DONE : State.BODY;
        } else {
            state = State.UNTIL_CLOSE;
        }
    }

    private void chunkSize(String text) {
        int end = text.indexOf(';');
        String hex = (end < 0 ? text : text.substring(0, end)).trim();
        try {
            remaining = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a chunk size: '" + text + "'");
        }
        state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
    }

    private void skipBody(ByteBuffer in) {
        int n = (int) Math.min(remaining, in.remaining());
        in.position(in.position() + n);
        remaining -= n;
        if (remaining == 0) {
            state = state == State.BODY ? State.DONE : State.CHUNK_END;
        }
    }
}
