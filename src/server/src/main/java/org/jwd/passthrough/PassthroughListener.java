package org.jwd.passthrough;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jwd.tls.PassthroughConfig;
import org.jwd.tls.ServerLevelConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds the end-to-end TLS listener to Jetty: called by {@code jetty-base/etc/jwd-passthrough.xml} (module
 * {@code jwd-passthrough}, which bin/jwd turns on when the configuration sets {@code wdisp/HTTPS/port}). It
 * reads the same configuration file as the dispatcher ({@code jwd.config}).
 */
public final class PassthroughListener {
    private static final Logger LOG = LoggerFactory.getLogger(PassthroughListener.class);

    private PassthroughListener() {
    }

    /**
     * @param host the address to listen on (the HTTP connector's)
     * @throws IllegalStateException when the configuration is invalid (every problem logged)
     */
    public static void install(Server server, String host) {
        ServerLevelConfig loaded = ServerLevelConfig.load();
        PassthroughConfig config = loaded.tls().passthrough();
        if (config == null) {
            LOG.warn("jwd: the jwd-passthrough module is on, but {} is not set: no end-to-end TLS listener",
                    PassthroughConfig.PORT);
            return;
        }
        PassthroughConnectionFactory factory = new PassthroughConnectionFactory(server, loaded.config(), config);
        ServerConnector connector = new ServerConnector(server, factory);
        connector.setHost(host);
        connector.setPort(config.port());
        connector.setIdleTimeout(loaded.config().forwarding().idleTimeout().toMillis());
        server.addConnector(connector);
        LOG.info("jwd: {} to the HTTPS-enabled servers {}", config, factory.chooser());
        factory.chooser().leftOut().forEach((pool, servers) -> LOG.warn("jwd: end-to-end TLS ({}): {} leaves out"
                + " the ABAP servers {}: a TLS connection, whose URLs jwd cannot read, goes to the pool's J2EE servers"
                + " only, as SAP's Web Dispatcher sends PROT=ROUTER connections to instances with a J2EE part",
                PassthroughConfig.PORT, pool, servers.stream().map(org.jwd.topology.Server::id).toList()));
    }
}
