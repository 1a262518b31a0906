package org.jwd.demo;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import org.jwd.demo.DemoBackend.Options;
import org.jwd.demo.DemoBackend.Tls;

/**
 * A demo backend's Jetty server and what it listens on: plain HTTP, and HTTPS beside it with {@link Tls}, as SAP
 * server processes serve both on two ports (jwd's {@code url} and {@code https_url}). It accepts whatever a
 * dispatcher forwards: judging odd URIs or big headers is the dispatcher's job, not the server's.
 *
 * @param server the Jetty server
 * @param http   its HTTP connector
 * @param https  its HTTPS connector, or {@code null} without TLS
 */
record Listeners(Server server, ServerConnector http, ServerConnector https) {
    /** A slow backend ({@code delay-ms}) must not be cut off by its own idle timeout. */
    private static final long IDLE_TIMEOUT_MILLIS = 300_000;

    static Listeners of(Options options, Tls tls) {
        // Slow requests sleep on worker threads, so the pool must be big enough that 16-64
        // concurrent slow requests never queue behind each other.
        QueuedThreadPool pool = new QueuedThreadPool(256, 8);
        pool.setName("demo-" + options.id());
        pool.setStopTimeout(500);
        Server server = new Server(pool);
        server.setStopTimeout(0);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // As big as the dispatcher's own bound: headers it lets through must reach the server process.
        http.setRequestHeaderSize(64 * 1024);
        http.setUriCompliance(UriCompliance.LEGACY);
        ServerConnector plain = connector(server, options, new HttpConnectionFactory(http));
        plain.setPort(options.port());
        return new Listeners(server, plain, tls == null ? null : https(server, options, http, tls));
    }

    private static ServerConnector https(Server server, Options options, HttpConfiguration http, Tls tls) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(tls.keyStore().toString());
        ssl.setKeyStorePassword(tls.password());
        if (tls.clientCertificatesFrom() != null) {
            ssl.setTrustStorePath(tls.clientCertificatesFrom().toString());
            ssl.setTrustStorePassword(tls.password());
            ssl.setNeedClientAuth(true);
        }
        HttpConfiguration secure = new HttpConfiguration(http);
        // The name a client asks for (SNI) is the client's business here: a backend answers whatever it is.
        SecureRequestCustomizer customizer = new SecureRequestCustomizer();
        customizer.setSniHostCheck(false);
        secure.addCustomizer(customizer);
        return connector(server, options, new SslConnectionFactory(ssl, "http/1.1"),
                new HttpConnectionFactory(secure));
    }

    private static ServerConnector connector(Server server, Options options,
                                             ConnectionFactory... factories) {
        ServerConnector connector = new ServerConnector(server, factories);
        connector.setHost(options.host());
        connector.setIdleTimeout(IDLE_TIMEOUT_MILLIS);
        connector.setAcceptQueueSize(256);
        server.addConnector(connector);
        return connector;
    }

    /**
     * Starts serving {@code handler} and returns once listening.
     *
     * @throws UncheckedIOException  if a port cannot be bound
     * @throws IllegalStateException if Jetty fails to start for another reason
     */
    void start(Handler handler, Options options) {
        server.setHandler(handler);
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly();
            throw new UncheckedIOException("demo backend " + options.id() + " cannot listen on "
                    + options.host() + ":" + options.port(), e);
        } catch (Exception e) {
            stopQuietly();
            throw new IllegalStateException("demo backend " + options.id() + " failed to start", e);
        }
    }

    private void stopQuietly() {
        try {
            server.stop();
        } catch (Exception ignored) {
            // already failing
        }
    }

    /** The HTTPS port, or -1 without TLS. */
    int httpsPort() {
        return https == null ? -1 : https.getLocalPort();
    }
}
