package org.jwd.launch;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.ClusterConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.ConfigParser;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;
import org.jwd.tls.TlsConfig;

/**
 * Which of jwd's optional Jetty modules a configuration needs, decided by jwd's own parser before Jetty starts:
 * {@code jwd-https} when it names a keystore ({@code jwd.ssl_keystore}), {@code jwd-passthrough} when it sets
 * {@code wdisp/HTTPS/port}. Reading the file with the real parser also stops an invalid configuration before
 * anything listens, with every problem named.
 *
 * <p>{@code java org.jwd.launch.JettyModules FILE [--https-port]} prints one module name a line and exits 0, or
 * prints the problems to standard error and exits 2. {@code --https-port} says the operator asked for an HTTPS
 * port, which needs a keystore.
 */
public final class JettyModules {
    public static final String HTTPS = "jwd-https";
    public static final String PASSTHROUGH = "jwd-passthrough";
    static final int INVALID = 2;

    private JettyModules() {
    }

    public static void main(String[] args) {
        if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].equals("--https-port"))) {
            System.err.println("usage: java " + JettyModules.class.getName() + " CONFIGURATION_FILE [--https-port]");
            System.exit(INVALID);
        }
        System.exit(run(Path.of(args[0]), args.length == 2, System.out, System.err));
    }

    /** @return the exit status: 0 with the modules printed to {@code out}, {@value #INVALID} with the problems */
    static int run(Path file, boolean httpsPortAsked, PrintStream out, PrintStream err) {
        List<String> modules;
        try {
            modules = modules(file);
        } catch (ConfigException e) {
            InvalidConfiguration.print(err, file.toString(), e.problems());
            return INVALID;
        }
        if (httpsPortAsked && !modules.contains(HTTPS)) {
            err.println("jwd: --https-port needs a keystore: " + TlsConfig.KEYSTORE + " (and "
                    + TlsConfig.KEYSTORE_PASSWORD + ") in " + file);
            return INVALID;
        }
        modules.forEach(out::println);
        return 0;
    }

    /** @throws ConfigException naming every problem of the file, as the dispatcher would */
    static List<String> modules(Path file) throws ConfigException {
        KeyReader keys = ConfigLoader.read(file);
        DispatcherConfig config = ConfigParser.read(keys);
        TlsConfig tls = TlsConfig.read(keys, config);
        ClusterConfig.read(keys, config);
        // the core and the TLS keys: the webapp reads the rest (and names unknown keys) when it deploys
        keys.check();
        List<String> modules = new ArrayList<>();
        if (tls.terminates()) {
            modules.add(HTTPS);
        }
        if (tls.passthrough() != null) {
            modules.add(PASSTHROUGH);
        }
        return modules;
    }
}
