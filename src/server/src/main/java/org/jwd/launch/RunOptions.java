package org.jwd.launch;

import java.nio.file.Path;

/**
 * What {@code bin/jwd run} was asked, as far as the choice of Jetty modules and listeners goes: the configuration
 * file, and the listeners the command line names. Each option is {@code null} when not given: the configuration's
 * {@code icm/server_port_<xx>} lines decide then, or the defaults.
 *
 * @param host      {@code --host}: the address the command line's ports bind
 * @param port      {@code --port}: the HTTP listener
 * @param httpsPort {@code --https-port}: the HTTPS listener, which needs a keystore
 */
record RunOptions(Path file, String host, Integer port, Integer httpsPort) {
    static final int DEFAULT_HTTPS_PORT = 8443;
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;

    /** {@code FILE [--host H] [--port N] [--https-port N]}, each option once at most. */
    static RunOptions parse(String... args) {
        if (args.length == 0 || args[0].startsWith("--")) {
            throw new IllegalArgumentException("the configuration file must come first");
        }
        String host = null;
        Integer port = null;
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

    /** The address the command line's ports, and SRCSRV's {@code *}, bind: {@code --host}, or loopback. */
    String hostOrDefault() {
        return host == null ? DEFAULT_HOST : host;
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
