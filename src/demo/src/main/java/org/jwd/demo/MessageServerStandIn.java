package org.jwd.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A stand-in for an SAP message server's HTTP port, for the demo and the tests: an embedded Jetty that answers
 * {@code /msgserver/text/logon} with the application servers it is told about, in the format of SAP Help's
 * "Application Server List" (help.sap.com/saphelp_crm60/helpdata/en/1f/63af32f15e7d479227a9528c5def2a/content.htm):
 * {@code version 1.2}, then per instance its name and one row per protocol, tab-separated, CRLF, instances
 * separated by an empty line. Instances are added and removed while it runs. It is not SAP's message server: it
 * knows no logon, no groups, no other request.
 */
public final class MessageServerStandIn implements AutoCloseable {
    /** Where SAP's Web Dispatcher asks by default ({@code wdisp/server_info_location}). */
    public static final String PATH = "/msgserver/text/logon";

    /**
     * One application server instance as the message server lists it.
     *
     * @param name      its SAP name, {@code <host>_<SID>_<NN>}, or {@code J2EE<cluster id>} for a Java dispatcher
     * @param abap      whether it has an ABAP stack (a {@code DIAG} row with {@code LB=capacity}, {@code HTTP} rows);
     *                  otherwise a Java instance ({@code J2EE} rows with {@code LB=capacity})
     * @param httpsPort its HTTPS port, or -1
     */
    public record Instance(String name, boolean abap, String host, int httpPort, int httpsPort, int capacity) {
        /** The instance a demo backend stands for, named {@code name}, of that capacity. */
        public static Instance of(DemoBackend backend, String name, int capacity) {
            return new Instance(name, backend.type() == DemoBackend.ServerType.ABAP, "127.0.0.1", backend.port(),
                    backend.httpsPort(), capacity);
        }

        /** Its record in the list: the name, then its rows. */
        String rows() {
            StringBuilder sb = new StringBuilder(name).append("\r\n");
            if (abap) {
                sb.append(row("DIAG", 3200, "LB=" + capacity)).append(row("RFC", 3300, ""));
                sb.append(row("HTTP", httpPort, ""));
                if (httpsPort > 0) {
                    sb.append(row("HTTPS", httpsPort, "")).append(row("HTTPS", httpsPort, "VHOST=0"));
                }
            } else {
                sb.append(row("J2EE", httpPort, "LB=" + capacity));
                if (httpsPort > 0) {
                    sb.append(row("J2EES", httpsPort, ""));
                }
                sb.append(row("P4", httpPort + 4, ""));
            }
            return sb.toString();
        }

        private String row(String protocol, int port, String description) {
            return protocol + "\t" + host + "\t" + port + "\t" + description + "\r\n";
        }
    }

    private final Server server;
    private final Map<String, Instance> instances = new ConcurrentHashMap<>();
    private final List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile String answer;
    private final int port;
    private final int httpsPort;

    private MessageServerStandIn(Server server, int port, int httpsPort) {
        this.server = server;
        this.port = port;
        this.httpsPort = httpsPort;
    }

    /** Starts it on an ephemeral port of 127.0.0.1, plain HTTP. */
    public static MessageServerStandIn start() {
        return start(null);
    }

    /** Starts it on ephemeral ports of 127.0.0.1: HTTP, and HTTPS ({@code MSSPORT}) with {@code tls} when given. */
    public static MessageServerStandIn start(DemoBackend.Tls tls) {
        Server server = new Server(new QueuedThreadPool(16, 2));
        server.setStopTimeout(0);
        ServerConnector http = new ServerConnector(server);
        http.setHost("127.0.0.1");
        server.addConnector(http);
        ServerConnector https = null;
        if (tls != null) {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(tls.keyStore().toString());
            ssl.setKeyStorePassword(tls.password());
            https = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"),
                    new HttpConnectionFactory());
            https.setHost("127.0.0.1");
            server.addConnector(https);
        }
        MessageServerStandIn[] self = new MessageServerStandIn[1];
        ServletContextHandler context = new ServletContextHandler("/");
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                self[0].answer(response);
            }
        }), PATH);
        server.setHandler(context);
        try {
            server.start();
        } catch (Exception e) {
            throw new UncheckedIOException(new IOException("the message server stand-in cannot start", e));
        }
        self[0] = new MessageServerStandIn(server, http.getLocalPort(), https == null ? -1 : https.getLocalPort());
        return self[0];
    }

    private void answer(HttpServletResponse response) throws IOException {
        requests.incrementAndGet();
        response.setContentType("text/plain;charset=utf-8");
        response.getOutputStream().write(list().getBytes(StandardCharsets.UTF_8));
    }

    /** The list as it answers it now. */
    public String list() {
        String fixed = answer;
        if (fixed != null) {
            return fixed;
        }
        List<String> records = new ArrayList<>();
        for (String name : order) {
            Instance i = instances.get(name);
            if (i != null) {
                records.add(i.rows());
            }
        }
        return "version 1.2\r\n" + String.join("\r\n", records);
    }

    /** Lists {@code instance} (again, replacing one of its name). */
    public void add(Instance instance) {
        if (instances.put(instance.name(), instance) == null) {
            order.add(instance.name());
        }
    }

    /** Lists it no more, as when the instance stops. */
    public void remove(String name) {
        instances.remove(name);
        order.remove(name);
    }

    /** Answers {@code body} instead of the list (an error page, garbage); {@code null} for the list again. */
    public void answerWith(String body) {
        answer = body;
    }

    /** The HTTP port ({@code ms/http_port}, {@code MSPORT}). */
    public int port() {
        return port;
    }

    /** The HTTPS port ({@code ms/https_port}, {@code MSSPORT}), or -1. */
    public int httpsPort() {
        return httpsPort;
    }

    /** How many lists it answered. */
    public int requests() {
        return requests.get();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** Stops it: its port answers nothing any more. */
    public void stop() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the message server stand-in did not stop", e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "MessageServerStandIn[127.0.0.1:" + port + ", " + order + "]";
    }
}
