package org.jwd.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jwd.config.AdminEntry;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerPorts;
import org.jwd.config.ServerPorts.Protocol;
import org.jwd.config.ServerPorts.ServerPort;

/**
 * Where the command-line tools ask a running jwd: its address and its administration's {@code PREFIX}. With the
 * configuration it runs with ({@code --config FILE}), both as {@code bin/jwd run} reads them: the first
 * {@code icm/HTTP/admin_<xx>}'s {@code PREFIX}, {@code PORT} and {@code HOST}; without a {@code PORT}, the first
 * {@code icm/server_port_<xx>} (HTTP before HTTPS), else jwd's default listener. An address of every interface (no
 * {@code HOST}, {@code 0.0.0.0}) is asked on loopback: the tools run on jwd's machine. {@code --url} and
 * {@code --prefix} win over the file; without a file, {@code JWD_URL}, else {@value #DEFAULT_URL}, and
 * {@value AdminEntry#DEFAULT_PREFIX}. (A {@code --port} or {@code --host} given to {@code bin/jwd run} is not in the
 * file: then {@code --url} says it.)
 *
 * <pre>
 * icm/HTTP/admin_0 = PREFIX=/sap/wdisp/admin, PORT=8090, HOST=10.0.0.5 -> http://10.0.0.5:8090, /sap/wdisp/admin
 * icm/server_port_0 = PROT=HTTP, PORT=8000                             -> http://127.0.0.1:8000, /jwd/admin
 * neither                                                              -> http://127.0.0.1:8080, /jwd/admin
 * </pre>
 *
 * @param url    the jwd, {@code http://host:port}
 * @param prefix the administration's {@code PREFIX}
 */
record AdminAddress(String url, String prefix) {
    static final String DEFAULT_URL = "http://127.0.0.1:8080";
    /** jwd's listener when neither the command line nor the configuration names one (RunOptions' default). */
    private static final int DEFAULT_PORT = 8080;
    private static final String LOOPBACK = "127.0.0.1";

    /**
     * @param url    {@code --url}, or {@code null}
     * @param prefix {@code --prefix}, or {@code null}
     * @param config {@code --config}, or {@code null}
     * @throws ConfigException naming the file and its problems when it cannot be read, or its administration's
     *                         entries or listeners are invalid
     */
    static AdminAddress of(String url, String prefix, String config, Function<String, String> env)
            throws ConfigException {
        if (config == null) {
            String fromEnv = env.apply("JWD_URL");
            return new AdminAddress(url != null ? url : fromEnv != null && !fromEnv.isBlank() ? fromEnv : DEFAULT_URL,
                    prefix != null ? prefix : AdminEntry.DEFAULT_PREFIX);
        }
        KeyReader keys = ConfigLoader.read(Path.of(config));
        AdminEntry entry = AdminEntry.readAll(keys).get(0);
        ServerPorts ports = ServerPorts.read(keys);
        keys.check();
        return new AdminAddress(url != null ? url : address(entry, ports), prefix != null ? prefix : entry.prefix());
    }

    /** Where {@code entry} answers: its own port, else the first listener the lines declare, else the default. */
    private static String address(AdminEntry entry, ServerPorts ports) {
        List<ServerPort> lines = new ArrayList<>(ports.of(Protocol.HTTP));
        lines.addAll(ports.of(Protocol.HTTPS));
        ServerPort line = lines.stream().filter(l -> entry.ports().isEmpty() || entry.ports().contains(l.port()))
                .findFirst().orElse(null);
        int port = !entry.ports().isEmpty() ? entry.ports().iterator().next()
                : line != null ? line.port() : DEFAULT_PORT;
        String host = !entry.hosts().isEmpty() ? entry.hosts().entries().get(0)
                : line != null && line.host() != null ? line.host() : LOOPBACK;
        boolean https = line != null && line.port() == port && line.protocol() == Protocol.HTTPS;
        return (https ? "https://" : "http://") + reachable(host) + ":" + port;
    }

    /** An address a client on this machine reaches: every interface's is loopback; an IPv6 literal in brackets. */
    private static String reachable(String host) {
        return switch (host) {
            case "0.0.0.0", "0.0.0.0/0" -> LOOPBACK;
            case "::", "[::]", "::/0" -> "[::1]";
            default -> host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        };
    }

    /** Why the tool could not read where the administration is, for standard error. */
    static String problems(String config, ConfigException e) {
        return "--config " + config + ": " + String.join("; ", e.problems());
    }
}
