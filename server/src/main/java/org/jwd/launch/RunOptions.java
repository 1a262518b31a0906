package org.jwd.launch;

import java.nio.file.Path;

/**
 * What {@code bin/jwd run} was asked, as far as the choice of Jetty modules and listeners goes: the configuration
 * file, the HTTP listener's address and port, and the HTTPS port when the operator gave one.
 *
 * @param httpsPort {@code --https-port}, or {@code null} when not given (then {@value #DEFAULT_HTTPS_PORT})
 */
record RunOptions(Path file, String host, int port, Integer httpsPort) {
    /** bin/jwd's default HTTPS port too ({@code jetty.ssl.port}). */
    static final int DEFAULT_HTTPS_PORT = 8443;
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;

    /** {@code FILE [--host H] [--port N] [--https-port N]}, each option once at most. */
    static RunOptions parse(String... args) {
        if (args.length == 0 || args[0].startsWith("--")) {
            throw new IllegalArgumentException("the configuration file must come first");
        }
        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        Integer httpsPort = null;
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = port(args[i], args[i + 1]);
                case "--https-port" -> httpsPort = port(args[i], args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "': expected --host, --port or --https-port");
            }
        }
        return new RunOptions(Path.of(args[0]), host, port, httpsPort);
    }

    int httpsPortOrDefault() {
        return httpsPort == null ? DEFAULT_HTTPS_PORT : httpsPort;
    }

    private static int port(String option, String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException(option + " '" + value + "': expected a port number 0 to 65535");
    }
}
