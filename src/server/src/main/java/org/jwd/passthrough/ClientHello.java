package org.jwd.passthrough;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads the SNI host name from the first bytes of a TLS connection, the only clear text a client sends
 * before the encryption starts: the ClientHello (RFC 8446 4.1.2, server_name from RFC 6066 3). Nothing is
 * decrypted and nothing is consumed: the bytes go on to the server unchanged.
 *
 * <pre>
 * record:     22 (handshake) | 3 x (version) | length(2) | fragment ...     (a ClientHello may span records)
 * handshake:  1 (client_hello) | length(3) | version(2) random(32) session_id(1+n) cipher_suites(2+n)
 *             compression_methods(1+n) extensions(2+n): type(2) length(2) data ...
 * server_name (type 0): list length(2) | name_type 0 (host_name) | length(2) | ASCII name
 * </pre>
 */
final class ClientHello {
    /** More bytes are needed to decide. */
    static final ClientHello INCOMPLETE = new ClientHello(false, null);
    /** Decided: not a ClientHello, or one without an SNI host name. */
    static final ClientHello NO_NAME = new ClientHello(true, null);

    private static final int HANDSHAKE = 22;
    private static final int CLIENT_HELLO = 1;
    private static final int SERVER_NAME = 0;
    private static final int HOST_NAME = 0;
    /** A record's fragment is at most 2^14 bytes (plus expansion, which a ClientHello does not have). */
    private static final int MAX_RECORD = 16384 + 2048;

    private final boolean complete;
    private final String serverName;

    private ClientHello(boolean complete, String serverName) {
        this.complete = complete;
        this.serverName = serverName;
    }

    /** Whether enough has been read to decide. */
    boolean complete() {
        return complete;
    }

    /** The SNI host name, or {@code null}. */
    String serverName() {
        return serverName;
    }

    /** Reads {@code bytes} from its position to its limit, without moving either. */
    static ClientHello parse(ByteBuffer bytes) {
        byte[] in = new byte[bytes.remaining()];
        bytes.duplicate().get(in);
        byte[] handshake = new byte[0];
        int pos = 0;
        while (true) {
            if (in.length - pos < 5) {
                return INCOMPLETE;
            }
            int length = u16(in, pos + 3);
            if (u8(in, pos) != HANDSHAKE || u8(in, pos + 1) != 3 || length == 0 || length > MAX_RECORD) {
                return NO_NAME;
            }
            if (in.length - pos - 5 < length) {
                return INCOMPLETE;
            }
            byte[] joined = new byte[handshake.length + length];
            System.arraycopy(handshake, 0, joined, 0, handshake.length);
            System.arraycopy(in, pos + 5, joined, handshake.length, length);
            handshake = joined;
            pos += 5 + length;
            if (handshake.length >= 4) {
                if (u8(handshake, 0) != CLIENT_HELLO) {
                    return NO_NAME;
                }
                int helloLength = u24(handshake, 1);
                if (helloLength > 4 * MAX_RECORD) {
                    return NO_NAME;
                }
                if (handshake.length >= 4 + helloLength) {
                    try {
                        return new ClientHello(true, serverName(handshake, 4, 4 + helloLength));
                    } catch (IndexOutOfBoundsException e) {
                        return NO_NAME;
                    }
                }
            }
        }
    }

    /** The host_name in the server_name extension of a ClientHello body in {@code b[from, to)}, or {@code null}. */
    private static String serverName(byte[] b, int from, int to) {
        int p = from + 2 + 32;                       // version, random
        p += 1 + u8(b, p);                           // session_id
        p += 2 + u16(b, p);                          // cipher_suites
        p += 1 + u8(b, p);                           // compression_methods
        if (p + 2 > to) {
            return null;                             // no extensions
        }
        int end = Math.min(to, p + 2 + u16(b, p));
        p += 2;
        while (p + 4 <= end) {
            int type = u16(b, p);
            int length = u16(b, p + 2);
            p += 4;
            if (p + length > end) {
                return null;
            }
            if (type == SERVER_NAME) {
                int listEnd = Math.min(p + length, p + 2 + u16(b, p));
                for (int q = p + 2; q + 3 <= listEnd; ) {
                    int nameType = u8(b, q);
                    int nameLength = u16(b, q + 1);
                    q += 3;
                    if (q + nameLength > listEnd) {
                        return null;
                    }
                    if (nameType == HOST_NAME) {
                        return new String(b, q, nameLength, StandardCharsets.US_ASCII);
                    }
                    q += nameLength;
                }
                return null;
            }
            p += length;
        }
        return null;
    }

    private static int u8(byte[] b, int i) {
        return b[i] & 0xFF;
    }

    private static int u16(byte[] b, int i) {
        return (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    private static int u24(byte[] b, int i) {
        return (b[i] & 0xFF) << 16 | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF);
    }

    @Override
    public String toString() {
        return !complete ? "ClientHello[incomplete]" : "ClientHello[server_name " + serverName + "]";
    }
}
