package org.jwd.launch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntConsumer;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.component.LifeCycle;
import org.jwd.config.ConfigLoader;
import org.jwd.config.HeaderForwarding;
import org.jwd.passthrough.PassthroughConnectionFactory;

/**
 * Tells {@code bin/jwd} what Jetty's start came to, so that the launcher reads no log (ready lines on standard
 * output, what went wrong on standard error, as before, beside Jetty's own log):
 * registered on the {@link Server} by {@code jetty-base/etc/jwd-launcher.xml} (module {@code jwd-launcher}).
 * <ul>
 *   <li>Started with the WAR deployed and available: one line per listener, HTTP first (--port's, then those of
 *       SRCSRV ports), then HTTPS, then end-to-end TLS: {@code jwd: ready on http://127.0.0.1:8080/}, {@code jwd: ready on https://...},
 *       {@code jwd: ready for end-to-end TLS on 127.0.0.1:8444}.</li>
 *   <li>The start failed: the configuration's problems, key by key, when the dispatcher refused its
 *       configuration; what else failed otherwise. Jetty then exits non-zero by itself.</li>
 *   <li>Started, but no webapp is available (none deployed, or one deployed unavailable): said so, and the
 *       process exits non-zero rather than listen without a dispatcher behind the port.</li>
 * </ul>
 */
public final class StartReport implements LifeCycle.Listener {
    /** The first line of the exception with which the webapp refuses an invalid configuration. */
    static final String INVALID_PREFIX = "jwd: invalid configuration";
    static final int NOT_AVAILABLE = 3;

    private final PrintStream out;
    private final PrintStream err;
    private final IntConsumer exit;

    /** For the Jetty XML: standard output and error; a start without the dispatcher ends the JVM. */
    public StartReport() {
        // On a thread of its own: System.exit waits for Jetty's shutdown hook, which stops the server, while the
        // thread that started it still holds the server's lifecycle lock as it tells its listeners.
        this(System.out, System.err, status -> new Thread(() -> System.exit(status), "jwd-exit").start());
    }

    StartReport(PrintStream out, PrintStream err, IntConsumer exit) {
        this.out = out;
        this.err = err;
        this.exit = exit;
    }

    @Override
    public void lifeCycleStarted(LifeCycle event) {
        if (!(event instanceof Server server)) {
            return;
        }
        List<String> unavailable = unavailableContexts(server);
        if (!unavailable.isEmpty()) {
            err.println("jwd: Jetty started, but the dispatcher is not available: " + String.join(", ", unavailable));
            err.flush();
            exit.accept(NOT_AVAILABLE);
            return;
        }
        System.setProperty(HeaderForwarding.ACCESS_POINTS_PROPERTY, accessPoints(server));
        readyLines(server).forEach(out::println);
        out.flush();
    }

    @Override
    public void lifeCycleFailure(LifeCycle event, Throwable cause) {
        if (!(event instanceof Server)) {
            return;
        }
        List<String> problems = configurationProblems(cause);
        if (problems.isEmpty()) {
            err.println("jwd: Jetty did not start: " + describe(cause));
        } else {
            String file = System.getProperty(ConfigLoader.SYSTEM_PROPERTY, "(jwd.config not set)");
            InvalidConfiguration.print(err, file, problems);
        }
        err.flush();
    }

    /** What is wrong with the server's contexts: none at all, or each one not available. */
    static List<String> unavailableContexts(Server server) {
        List<ContextHandler> contexts = server.getDescendants(ContextHandler.class);
        if (contexts.isEmpty()) {
            return List.of("no webapp is deployed (jetty-base/webapps/jwd.xml)");
        }
        return contexts.stream().filter(c -> !c.isAvailable()).map(c -> "the webapp at " + c.getContextPath()
                + " is not available").toList();
    }

    /** One line per network listener: HTTP, then HTTPS, then end-to-end TLS, each in the order Jetty holds them. */
    static List<String> readyLines(Server server) {
        List<String> lines = new ArrayList<>();
        for (NetworkConnector listener : listeners(server)) {
            String address = host(listener.getHost()) + ":" + listener.getLocalPort();
            lines.add(switch (order(listener)) {
                case 0 -> "jwd: ready on http://" + address + "/";
                case 1 -> "jwd: ready on https://" + address + "/";
                default -> "jwd: ready for end-to-end TLS on " + address;
            });
        }
        return lines;
    }

    /**
     * jwd's access points as SAP's {@code x-sap-webdisp-ap} names them, for the webapp, which cannot see the
     * connectors: the first HTTP and the first HTTPS listener ({@code http=8080;https=8443}), with the ports bound.
     */
    static String accessPoints(Server server) {
        List<String> points = new ArrayList<>();
        for (NetworkConnector listener : listeners(server)) {
            int order = order(listener);
            String protocol = order == 0 ? "http" : "https";
            if (order < 2 && points.stream().noneMatch(p -> p.startsWith(protocol + "="))) {
                points.add(protocol + "=" + listener.getLocalPort());
            }
        }
        return String.join(";", points);
    }

    private static List<NetworkConnector> listeners(Server server) {
        return Arrays.stream(server.getConnectors()).filter(NetworkConnector.class::isInstance)
                .map(NetworkConnector.class::cast).sorted(Comparator.comparingInt(StartReport::order)).toList();
    }

    private static int order(Connector listener) {
        if (listener.getConnectionFactory(PassthroughConnectionFactory.PROTOCOL) != null) {
            return 2;
        }
        return listener.getConnectionFactory(SslConnectionFactory.class) != null ? 1 : 0;
    }

    /** A listener on every address is reached on the loopback; an IPv6 literal goes in brackets in a URL. */
    static String host(String listening) {
        if (listening == null || listening.isEmpty() || listening.equals("0.0.0.0") || listening.equals("::")
                || listening.equals("[::]")) {
            return "127.0.0.1";
        }
        return listening.contains(":") && !listening.startsWith("[") ? "[" + listening + "]" : listening;
    }

    /**
     * The problems the webapp named when it refused its configuration: the lines after the first of its
     * exception's message. The exception's class is the webapp's own, invisible from here, so the message is
     * what is recognized.
     */
    static List<String> configurationProblems(Throwable cause) {
        if (cause == null) {
            return List.of();
        }
        String message = cause.getMessage();
        if (message != null && message.startsWith(INVALID_PREFIX)) {
            List<String> lines = message.lines().skip(1).filter(line -> !line.isBlank()).toList();
            if (!lines.isEmpty()) {
                return lines;
            }
        }
        // Jetty gathers the failures of several components as suppressed exceptions of one.
        for (Throwable next : concat(cause.getCause() == cause ? null : cause.getCause(), cause.getSuppressed())) {
            List<String> problems = configurationProblems(next);
            if (!problems.isEmpty()) {
                return problems;
            }
        }
        return List.of();
    }

    private static List<Throwable> concat(Throwable cause, Throwable[] suppressed) {
        List<Throwable> all = new ArrayList<>();
        if (cause != null) {
            all.add(cause);
        }
        all.addAll(Arrays.asList(suppressed));
        return all;
    }

    /** Each message along the cause chain, outermost first: "Failed to bind to /127.0.0.1:8080: Address already in use". */
    static String describe(Throwable cause) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? null : t.getMessage().strip();
            if (message != null && !message.isEmpty() && messages.stream().noneMatch(m -> m.contains(message))) {
                messages.add(message);
            }
        }
        return messages.isEmpty() ? cause.toString() : String.join(": ", messages);
    }
}
