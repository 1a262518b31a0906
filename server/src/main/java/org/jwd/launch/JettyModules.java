package org.jwd.launch;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jwd.config.AdminEntry;
import org.jwd.config.ClusterConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.ConfigParser;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;
import org.jwd.launch.SystemListeners.Listener;
import org.jwd.systems.Systems;
import org.jwd.tls.TlsConfig;

/**
 * Which of jwd's optional Jetty modules a configuration needs, decided by jwd's own parser before Jetty starts:
 * {@code jwd-https} when it names a keystore ({@code jwd.ssl_keystore}), {@code jwd-passthrough} when it sets
 * {@code wdisp/HTTPS/port}, {@code jwd-listeners} when an {@code SRCSRV} item of a {@code wdisp/system_<xx>}
 * entry or the {@code PORT} of an {@code icm/HTTP/admin_<xx>} names a port jwd does not listen on otherwise
 * ({@link SystemListeners}). Reading the file with the real
 * parser also stops an invalid configuration before anything listens, with every problem named.
 *
 * <p>{@code java org.jwd.launch.JettyModules FILE [--host H] [--port N] [--https-port N]} (bin/jwd run's own
 * options) prints one module name a line, then one line {@code listener <address>:<port>} per listener of
 * {@code jwd-listeners}, and exits 0; or prints the problems to standard error and exits 2. {@code --https-port}
 * says the operator asked for an HTTPS port, which needs a keystore.
 */
public final class JettyModules {
    public static final String HTTPS = "jwd-https";
    public static final String PASSTHROUGH = "jwd-passthrough";
    public static final String LISTENERS = "jwd-listeners";
    /** How a listener line of the output starts. */
    public static final String LISTENER = "listener ";
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
        System.exit(run(options, System.out, System.err));
    }

    /** @return the exit status: 0 with the modules printed to {@code out}, {@value #INVALID} with the problems */
    static int run(RunOptions options, PrintStream out, PrintStream err) {
        Path file = options.file();
        Decision decision;
        try {
            decision = decide(options);
        } catch (ConfigException e) {
            InvalidConfiguration.print(err, file.toString(), e.problems());
            return INVALID;
        }
        if (options.httpsPort() != null && !decision.modules().contains(HTTPS)) {
            err.println("jwd: --https-port needs a keystore: " + TlsConfig.KEYSTORE + " (and "
                    + TlsConfig.KEYSTORE_PASSWORD + ") in " + file);
            return INVALID;
        }
        decision.modules().forEach(out::println);
        decision.listeners().forEach(listener -> out.println(LISTENER + listener));
        return 0;
    }

    /** The modules to turn on, and the listeners of {@code jwd-listeners}. */
    record Decision(List<String> modules, List<Listener> listeners) {
    }

    /** @throws ConfigException naming every problem of the file, as the dispatcher would */
    static Decision decide(RunOptions options) throws ConfigException {
        KeyReader keys = ConfigLoader.read(options.file());
        DispatcherConfig config = ConfigParser.read(keys);
        TlsConfig tls = TlsConfig.read(keys, config);
        ClusterConfig.read(keys, config);
        List<AdminEntry> admin = AdminEntry.readAll(keys);
        // the core, TLS and listener keys: the webapp reads the rest (and names unknown keys) when it deploys
        keys.check();
        Systems systems = Systems.parse(keys.values());
        List<String> modules = new ArrayList<>();
        Set<Integer> open = new TreeSet<>(Set.of(options.port()));
        if (tls.terminates()) {
            modules.add(HTTPS);
            open.add(options.httpsPortOrDefault());
        }
        if (tls.passthrough() != null) {
            modules.add(PASSTHROUGH);
            open.add(tls.passthrough().port());
        }
        List<Listener> listeners = new ArrayList<>(SystemListeners.of(systems, options.host(), open));
        SystemListeners.ofAdmin(admin, options.host(), open).stream().filter(l -> !listeners.contains(l))
                .forEach(listeners::add);
        if (!listeners.isEmpty()) {
            modules.add(LISTENERS);
        }
        return new Decision(modules, listeners);
    }
}
