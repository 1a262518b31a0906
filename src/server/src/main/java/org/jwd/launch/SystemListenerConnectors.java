package org.jwd.launch;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jwd.launch.SystemListeners.Listener;

/**
 * Adds the listeners of {@link SystemListeners} to Jetty: called by {@code jetty-base/etc/jwd-listeners.xml}
 * (module {@code jwd-listeners}, which bin/jwd turns on when {@link JettyModules} names such listeners, and
 * passes them as {@code jwd.listeners=127.0.0.1:8081,10.0.0.1:8082}). Each is a plain HTTP connector like the
 * {@code http} module's: the same {@link HttpConfiguration} (header size, server version) and
 * the same socket settings, so that a request is read alike whichever port it came to; only the address and
 * the port differ. {@link StartReport} prints a ready line for each, as for every listener.
 */
public final class SystemListenerConnectors {
    private SystemListenerConnectors() {
    }

    /**
     * @param http      the {@code http} module's connector ({@code httpConnector} in {@code jetty-http.xml})
     * @param listeners {@code <address>:<port>} items separated by {@code ,}; empty for none
     * @throws IllegalArgumentException naming an item that is not of that form
     */
    public static void install(Server server, ServerConnector http, String listeners) {
        HttpConnectionFactory factory = http.getConnectionFactory(HttpConnectionFactory.class);
        if (factory == null) {
            throw new IllegalStateException("jwd-listeners: the http connector " + http
                    + " has no HTTP/1.1 connection factory to copy");
        }
        HttpConfiguration config = factory.getHttpConfiguration();
        for (String item : listeners.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            Listener listener = Listener.parse(item.strip());
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config));
            connector.setName("jwd-srcsrv-" + listener);
            connector.setHost(listener.host());
            connector.setPort(listener.port());
            connector.setIdleTimeout(http.getIdleTimeout());
            connector.setAcceptQueueSize(http.getAcceptQueueSize());
            connector.setReuseAddress(http.getReuseAddress());
            connector.setReusePort(http.isReusePort());
            connector.setAcceptedTcpNoDelay(http.getAcceptedTcpNoDelay());
            server.addConnector(connector);
        }
    }
}
