package org.jwd.config;

import java.time.Duration;

/**
 * How requests are forwarded: the proxy's HTTP client and the headers jwd adds.
 *
 * @param connectTimeout       {@code jwd.connect_timeout}
 * @param idleTimeout          {@code jwd.idle_timeout}
 * @param requestTimeout       the whole request, SAP's PROCTIMEOUT ({@code jwd.request_timeout}): past it the
 *                             client gets 504
 * @param clientThreads        {@code jwd.client_threads}: the bound of the HTTP client's own thread pool, used where
 *                             the servlet container lends it no Jetty thread pool (Tomcat)
 * @param connectionsPerServer {@code jwd.connections_per_server}: the most connections the HTTP client opens to one
 *                             server; requests beyond them wait in the client's queue for one to be free
 * @param debugHeaders         {@code jwd.debug_headers}: the routing decision in {@code X-Jwd-Route}
 * @param headers              what jwd tells the servers in headers: the client's {@code Host}, SAP's header
 *                             parameters, the trusted proxies
 * @param stop                 how a stop (SIGTERM) goes: {@code jwd.stop_delay}, {@code jwd.stop_timeout}
 */
public record ForwardingConfig(Duration connectTimeout, Duration idleTimeout, Duration requestTimeout,
                               int clientThreads, int connectionsPerServer, boolean debugHeaders,
                               HeaderForwarding headers, StopConfig stop) {

    /** The peers whose forwarding headers are kept ({@code jwd.trusted_proxies}). */
    public TrustedProxies trustedProxies() {
        return headers.trustedProxies();
    }
}
