package org.jwd.bench;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.jetty.ee10.proxy.BalancerServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Jetty's own {@link BalancerServlet} in an embedded Jetty, for {@code src/bench/run}: the baseline jwd is compared
 * with, on the same proxy machinery without jwd's routing. Listens on 127.0.0.1 only.
 *
 * <pre>java -cp target/test-classes:$(cat target/test-classpath.txt) org.jwd.bench.BalancerServletMain \
 *     --port 18080 --member b1=http://127.0.0.1:18001 --member b2=http://127.0.0.1:18002</pre>
 *
 * <p>Sticky sessions are on: {@code BalancerServlet} keeps a request on the member whose name is the route suffix
 * of its session id ({@code JSESSIONID=abc.b2} goes to member {@code b2}); an id without a known suffix is
 * balanced round robin. It has no session table. Prints {@code balancer: ready on http://127.0.0.1:P/} once it
 * serves; SIGTERM stops it.
 */
public final class BalancerServletMain {
    private BalancerServletMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = -1;
        Map<String, String> members = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (i + 1 >= args.length) {
                usage("missing value for " + arg);
            }
            String value = args[++i];
            switch (arg) {
                case "--port" -> port = Integer.parseInt(value);
                case "--member" -> {
                    int eq = value.indexOf('=');
                    if (eq <= 0 || eq == value.length() - 1) {
                        usage("--member " + value + ": expected NAME=http://host:port");
                    }
                    members.put(value.substring(0, eq), value.substring(eq + 1));
                }
                default -> usage("unknown option " + arg);
            }
        }
        if (port < 0 || members.isEmpty()) {
            usage("--port and at least one --member are required");
        }

        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // As jwd's (jetty-base/start.d/jwd.ini, JwdEmbeddedMain): the cells of src/bench/run differ in the servlet only.
        http.setRequestHeaderSize(65536);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder balancer = new ServletHolder("balancer", BalancerServlet.class);
        balancer.setInitParameter("stickySessions", "true");
        members.forEach((name, url) -> balancer.setInitParameter("balancerMember." + name + ".proxyTo", url));
        // Initialized at start, so a bad member URL stops the process instead of failing the first request.
        balancer.setInitOrder(0);
        context.addServlet(balancer, "/*");
        server.setHandler(context);
        server.setStopAtShutdown(true);
        server.start();
        System.out.println("balancer: ready on http://127.0.0.1:" + connector.getLocalPort() + "/");
        server.join();
    }

    private static void usage(String problem) {
        System.err.println("BalancerServletMain: " + problem);
        System.err.println("usage: BalancerServletMain --port N --member NAME=http://host:port [--member ...]");
        System.exit(2);
    }
}
