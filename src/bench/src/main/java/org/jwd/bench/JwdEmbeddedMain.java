package org.jwd.bench;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jwd.boot.DispatcherLifecycle;
import org.jwd.proxy.DispatcherServlet;

/**
 * jwd's listener and dispatcher servlet in an embedded Jetty, for {@code src/bench/run attribution}: the cell
 * "jwd's servlet, embedded context" of the 2 x 2 {jwd, {@code BalancerServlet}} x {WAR in the Jetty
 * distribution, embedded}. The context is built as {@link BalancerServletMain} builds its own (a
 * {@code ServletContextHandler} without sessions), so that the two embedded cells differ only in the servlet.
 * The HTTP settings are those of {@code jetty-base/start.d/jwd.ini} that change what a request costs.
 * Listens on 127.0.0.1 only; the configuration comes from the system property {@code jwd.config}, as under
 * {@code bin/jwd}.
 *
 * <pre>java -Djwd.config=FILE -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     org.jwd.bench.JwdEmbeddedMain --port 18080</pre>
 *
 * <p>Prints {@code jwd-embedded: ready on http://127.0.0.1:P/} once it serves; SIGTERM stops it. An invalid
 * configuration stops it with the listener's message.
 */
public final class JwdEmbeddedMain {
    private JwdEmbeddedMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !args[0].equals("--port")) {
            usage("expected --port N");
        }
        int port = -1;
        try {
            port = Integer.parseInt(args[1]);
        } catch (NumberFormatException e) {
            usage("--port '" + args[1] + "': expected a port number");
        }

        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(65536);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/");
        context.addEventListener(new DispatcherLifecycle());
        ServletHolder dispatcher = new ServletHolder("dispatcher", DispatcherServlet.class);
        dispatcher.setAsyncSupported(true);
        // Initialized at start, as web.xml's load-on-startup does: a bad configuration stops the process.
        dispatcher.setInitOrder(1);
        context.addServlet(dispatcher, "/*");
        server.setHandler(context);
        server.setStopAtShutdown(true);
        server.start();
        if (!context.isAvailable()) {
            server.stop();
            System.err.println("JwdEmbeddedMain: the context did not start (the log above says why)");
            System.exit(1);
        }
        System.out.println("jwd-embedded: ready on http://127.0.0.1:" + connector.getLocalPort() + "/");
        server.join();
    }

    private static void usage(String problem) {
        System.err.println("JwdEmbeddedMain: " + problem);
        System.err.println("usage: JwdEmbeddedMain --port N   (configuration: -Djwd.config=FILE)");
        System.exit(2);
    }
}
