package org.jwd.launch;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jwd.config.AdminConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.launch.SystemListeners.Listener;
import org.jwd.runtime.ConfigReader;
import org.jwd.systems.Systems;
import org.jwd.tls.TlsConfig;

/**
 * What Jetty must start for a configuration, decided by jwd's own reading of it before Jetty starts: the listeners
 * ({@link Listeners}: the command line's, or the SAP profile's {@code icm/server_port_<xx>} lines), {@code jwd-https}
 * when it has something to present ({@code jwd.ssl_keystore}, or an HTTPS line's {@code SSLCONFIG}),
 * {@code jwd-passthrough} for end-to-end TLS ({@code PROT=ROUTER} or {@code wdisp/HTTPS/port}), {@code jwd-listeners}
 * for further HTTP listeners (more
 * {@code PROT=HTTP} lines, ports an {@code SRCSRV} item or the {@code PORT} of an
 * {@code icm/HTTP/admin_<xx>} names), {@code jwd-otel} when OpenTelemetry's settings ask for traces
 * ({@link Traces}). The file is read as the dispatcher reads it (one code
 * path: {@link org.jwd.runtime.ConfigReader}), so an invalid configuration stops here, with every problem named,
 * before anything listens.
 *
 * <p>{@code java org.jwd.launch.JettyModules FILE [--host H] [--port N] [--https-port N]} (bin/jwd run's own
 * options) prints one line per decision and exits 0:
 * <pre>
 *   http HOST PORT          the http module's listener
 *   https HOST PORT LINE MORE   jwd-https, and its listener (the ssl module's) for that
 *                           icm/server_port_&lt;xx&gt; ({@code -}: --https-port's); MORE: the further HTTPS
 *                           lines' listeners, HOST:PORT=LINE,... ({@code -}: none)
 *   module NAME             another module to turn on (jwd-passthrough, jwd-listeners, jwd-otel)
 *   listener HOST:PORT      a further HTTP listener of jwd-listeners
 *   env NAME=VALUE ...      variables for bin/jwd and the JVM: OpenTelemetry's Java agent's needs
 *   idle-timeout MILLIS     the profile's TIMEOUT, for every listener
 *   stop MILLIS MILLIS      jwd.stop_timeout: how long a stop waits for the requests in flight, and before that
 *                           jwd.stop_delay: how long it serves on while load balancers take the node out
 * </pre>
 * and notes on standard error; or prints the problems to standard error and exits 2.
 */
public final class JettyModules {
    public static final String HTTPS = "jwd-https";
    public static final String PASSTHROUGH = "jwd-passthrough";
    public static final String LISTENERS = "jwd-listeners";
    /** How a listener line of the output starts. */
    public static final String LISTENER = "listener ";
    /** An empty field of the {@code https} line (bin/jwd reads fields split by spaces; Jetty takes no empty value). */
    public static final String NONE = "-";
    static final int INVALID = 2;

    private JettyModules() {
    }

    public static void main(String[] args) {
        RunOptions options;
        try {
            options = RunOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jwd: " + e.getMessage());
            System.err.println("usage: java " + JettyModules.class.getName() + " CONFIGURATION_FILE"
                    + " [--host H] [--port N] [--https-port N]");
            System.exit(INVALID);
            return;
        }
        System.exit(run(options, System.getenv(), System.out, System.err));
    }

    /**
     * @param environment bin/jwd's: OpenTelemetry's settings and the JVM's options ({@link Traces})
     * @return the exit status: 0 with the decision printed to {@code out}, {@value #INVALID} with the problems
     */
    static int run(RunOptions options, Map<String, String> environment, PrintStream out, PrintStream err) {
        Path file = options.file();
        Decision decision;
        try {
            decision = decide(options, Traces.of(environment));
        } catch (ConfigException e) {
            InvalidConfiguration.print(err, file.toString(), e.problems());
            return INVALID;
        }
        if (options.httpsPort() != null && decision.listeners().https().isEmpty()) {
            err.println("jwd: --https-port needs a keystore: " + TlsConfig.KEYSTORE + " (and "
                    + TlsConfig.KEYSTORE_PASSWORD + ") in " + file);
            return INVALID;
        }
        decision.listeners().notes().forEach(note -> err.println("jwd: " + note));
        if (!decision.traces().environment().isEmpty()) {
            err.println("jwd: OpenTelemetry's Java agent: jwd makes the spans of its requests, so the agent's own of"
                    + " Jetty, the servlet and Jetty's client are off, and no class-data archive is made ("
                    + String.join(" ", decision.traces().environment()) + ")");
        }
        decision.lines().forEach(out::println);
        return 0;
    }

    /**
     * The configuration as the dispatcher reads it, its listeners and the modules they need.
     *
     * @param more the further plain HTTP listeners: the profile's and SRCSRV's
     */
    record Decision(DispatcherConfig config, Listeners listeners, boolean passthrough, List<Listener> more,
                    Traces traces) {
        /** The lines bin/jwd reads. */
        List<String> lines() {
            List<String> lines = new ArrayList<>();
            lines.add("http " + listeners.http().host() + " " + listeners.http().port());
            if (!listeners.https().isEmpty()) {
                Listeners.Https first = listeners.https().get(0);
                List<Listeners.Https> further = listeners.https().subList(1, listeners.https().size());
                lines.add("https " + first.listener().host() + " " + first.listener().port() + " "
                        + (first.line() == null ? NONE : first.line()) + " " + (further.isEmpty() ? NONE
                        : String.join(",", further.stream().map(Listeners.Https::toString).toList())));
            }
            if (passthrough) {
                lines.add("module " + PASSTHROUGH);
            }
            if (!more.isEmpty()) {
                lines.add("module " + LISTENERS);
                more.forEach(l -> lines.add(LISTENER + l));
            }
            if (listeners.idleTimeout() != null) {
                lines.add("idle-timeout " + listeners.idleTimeout().toMillis());
            }
            lines.add("stop " + config.forwarding().stop().timeout().toMillis() + " "
                    + config.forwarding().stop().delay().toMillis());
            lines.addAll(traces.lines());
            return lines;
        }
    }

    /** @throws ConfigException naming every problem of the file, as the dispatcher would */
    static Decision decide(RunOptions options, Traces traces) throws ConfigException {
        DispatcherConfig config = ConfigReader.load(options.file());
        TlsConfig tls = config.section(TlsConfig.class);
        Listeners listeners = Listeners.of(options, config.serverPorts(), tls.termination());
        Set<Integer> open = new TreeSet<>();
        open.add(listeners.http().port());
        listeners.more().forEach(l -> open.add(l.port()));
        listeners.https().forEach(h -> open.add(h.listener().port()));
        if (tls.passthrough() != null) {
            open.add(tls.passthrough().port());
        }
        List<Listener> more = new ArrayList<>(listeners.more());
        more.addAll(SystemListeners.of(Systems.parse(config.properties()), options.hostOrDefault(), open));
        more.forEach(l -> open.add(l.port()));
        SystemListeners.ofAdmin(config.section(AdminConfig.class).entries(), options.hostOrDefault(), open).stream()
                .filter(l -> !more.contains(l)).forEach(more::add);
        return new Decision(config, listeners, tls.passthrough() != null, List.copyOf(more), traces);
    }
}
