package org.jwd.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.ServerPorts;
import org.jwd.config.ServerPorts.Protocol;
import org.jwd.config.ServerPorts.ServerPort;
import org.jwd.launch.SystemListeners.Listener;
import org.jwd.tls.Termination;

/**
 * Where jwd listens: the command line's ports ({@code --port}, {@code --https-port}) where given, else the SAP
 * profile's {@code icm/server_port_<xx>} lines, else the defaults (127.0.0.1:8080, HTTPS on 8443). The command line
 * wins over the profile's lines of the same protocol and says so; each HTTPS line is a listener of its own, with its
 * own SSL configuration. The profile's lines without {@code HOST} listen on
 * every interface, as SAP's do; the command line's bind {@code --host} (loopback by default).
 *
 * <pre>
 *   no lines,             --port 9000      -> http 127.0.0.1:9000
 *   PROT=HTTP,PORT=8000;  (no options)     -> http 0.0.0.0:8000
 *   PROT=HTTP,PORT=8000;  --port 9000      -> http 127.0.0.1:9000, and a note that the command line wins
 *   PROT=HTTP,PORT=8000 and PROT=HTTP,PORT=8001,HOST=10.0.0.1 -> http 0.0.0.0:8000, listener 10.0.0.1:8001
 * </pre>
 *
 * @param http        the HTTP listener of Jetty's {@code http} module
 * @param more        further plain HTTP listeners (module {@code jwd-listeners})
 * @param https       the HTTPS listeners when jwd terminates TLS, the {@code ssl} module's first; empty otherwise
 * @param idleTimeout the profile's {@code TIMEOUT}; {@code null} for Jetty's default
 * @param notes       what the operator is told: a profile line the command line replaced
 */
record Listeners(Listener http, List<Listener> more, List<Https> https, Duration idleTimeout, List<String> notes) {
    static final String EVERY_INTERFACE = "0.0.0.0";

    /**
     * An HTTPS listener and the line whose SSL configuration it presents.
     *
     * @param line its {@code icm/server_port_<xx>}, or {@code null} for {@code --https-port}'s
     */
    record Https(Listener listener, String line) {
        /** As bin/jwd passes a further one to Jetty ({@code jwd.https_listeners}): {@code <address>:<port>=<line>}. */
        @Override
        public String toString() {
            return listener + "=" + line;
        }
    }

    /** @param termination what the configuration presents: the HTTPS lines' settings, and whether --https-port can */
    static Listeners of(RunOptions options, ServerPorts ports, Termination termination) {
        List<String> notes = new ArrayList<>();
        List<Listener> http = new ArrayList<>();
        List<ServerPort> httpLines = ports.of(Protocol.HTTP);
        if (options.port() != null || httpLines.isEmpty()) {
            http.add(new Listener(options.hostOrDefault(), options.port() == null ? RunOptions.DEFAULT_PORT
                    : options.port()));
            httpLines.forEach(p -> notes.add("--port " + options.port() + " given: the command line wins over " + p));
        } else {
            httpLines.forEach(p -> http.add(listener(p)));
        }
        List<Https> https = new ArrayList<>();
        if (termination.terminates()) {
            List<ServerPort> httpsLines = ports.of(Protocol.HTTPS);
            if (options.httpsPort() != null || httpsLines.isEmpty()) {
                https.add(new Https(new Listener(options.hostOrDefault(), options.httpsPort() == null
                        ? RunOptions.DEFAULT_HTTPS_PORT : options.httpsPort()), null));
                httpsLines.forEach(p -> notes.add("--https-port " + options.httpsPort()
                        + " given: the command line wins over " + p));
            } else {
                httpsLines.forEach(p -> https.add(new Https(listener(p), p.key())));
            }
        }
        return new Listeners(http.get(0), List.copyOf(http.subList(1, http.size())), List.copyOf(https),
                ports.timeout(), List.copyOf(notes));
    }

    private static Listener listener(ServerPort p) {
        return new Listener(p.host() == null ? EVERY_INTERFACE : p.host(), p.port());
    }
}
