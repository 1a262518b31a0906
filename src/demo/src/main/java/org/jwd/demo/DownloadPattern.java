package org.jwd.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The bytes of every {@code /download} body, which a test checks without keeping them: byte {@code i} is
 * {@code (i*31+7) & 0xff}. The pattern repeats every 256 bytes, so every 64 KB chunk is the same precomputed block.
 */
final class DownloadPattern {
    /** The chunk size bodies are written and read in. */
    static final int CHUNK = 64 * 1024;
    private static final byte[] BLOCK = new byte[CHUNK];

    static {
        for (int i = 0; i < CHUNK; i++) {
            BLOCK[i] = (byte) byteAt(i);
        }
    }

    private DownloadPattern() {
    }

    static int byteAt(long i) {
        return (int) ((i * 31 + 7) & 0xff);
    }

    /** Writes the first {@code n} bytes of the pattern. */
    static void write(OutputStream out, long n) throws IOException {
        for (long left = n; left > 0; left -= CHUNK) {
            out.write(BLOCK, 0, (int) Math.min(CHUNK, left));
        }
    }

    /** CRC32 of the first {@code n} bytes, as 8 lower-case hex digits. */
    static String crc32(long n) {
        CRC32 crc = new CRC32();
        for (long left = n; left > 0; left -= CHUNK) {
            crc.update(BLOCK, 0, (int) Math.min(CHUNK, left));
        }
        return hex(crc.getValue());
    }

    static String hex(long crc) {
        return String.format(Locale.ROOT, "%08x", crc);
    }
}
