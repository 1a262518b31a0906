package org.jwd.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.jwd.config.PasswordHash;

/**
 * {@code bin/jwd hash-password [--iterations N]}: reads one password line from standard input and prints its
 * {@link PasswordHash} for {@code admin.password_hash}. (On a terminal, {@code bin/jwd} asks for it without echo.)
 * It uses nothing but the JDK and jwd's configuration classes.
 */
public final class HashPassword {
    private HashPassword() {
    }

    public static void main(String[] args) throws IOException {
        int iterations = PasswordHash.DEFAULT_ITERATIONS;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--iterations") && i + 1 < args.length) {
                iterations = Integer.parseInt(args[++i]);
            } else {
                System.err.println("usage: bin/jwd hash-password [--iterations N] < password");
                System.exit(2);
            }
        }
        char[] password = firstLine(System.in);
        if (password == null || password.length == 0) {
            System.err.println("jwd: no password given on standard input");
            System.exit(1);
        }
        System.out.println(PasswordHash.create(password, iterations));
        Arrays.fill(password, '\0');
    }

    /** The first line of the stream without its line end, or {@code null} at once at its end. */
    static char[] firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int b;
        boolean any = false;
        while ((b = in.read()) >= 0 && b != '\n') {
            any = true;
            if (b != '\r') {
                bytes.write(b);
            }
        }
        if (!any && b < 0) {
            return null;
        }
        CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes.toByteArray()));
        char[] line = new char[chars.remaining()];
        chars.get(line);
        return line;
    }
}
