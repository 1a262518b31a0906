package org.jwd;

import org.jwd.affinity.SessionTable;
import org.jwd.affinity.SessionTables;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.health.HealthChecker;
import org.jwd.routing.Router;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.tls.TlsConfig;
import org.jwd.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher's parts for one configuration, built once at startup and closed with the webapp: the
 * topology, the URL mapping table (with its reloads), the session table, the health checks, the TLS settings,
 * and the router that turns a request into a decision. The servlets find it in the servlet context under {@link #ATTRIBUTE}.
 */
public final class Dispatcher implements AutoCloseable {
    public static final String ATTRIBUTE = Dispatcher.class.getName();
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final DispatcherConfig config;
    private final TlsConfig tls;
    private final Topology topology;
    private final UrlPrefixLoader urlPrefixes;
    private final SessionTable sessionTable;
    private final HealthChecker health;
    private final Router router;

    /** @throws ConfigException when the TLS keys are invalid (they are checked here, not by the parser) */
    public Dispatcher(DispatcherConfig config) throws ConfigException {
        this.config = config;
        this.tls = TlsConfig.from(config);
        this.topology = Topology.of(config);
        this.urlPrefixes = new UrlPrefixLoader(config);
        this.sessionTable = SessionTables.create(config);
        this.health = new HealthChecker(topology.servers().values(), config.health());
        this.router = new Router(config, topology, urlPrefixes.current(), sessionTable);
        for (LogonGroupConfig group : config.logonGroups()) {
            if (!group.extRfc()) {
                LOG.warn("jwd: logon group {} has ext_rfc=false: every request goes to its favorite server, "
                        + "none is balanced among its members (SAP floods one server this way)", group.name());
            }
        }
    }

    /** Starts what runs in the background: URL prefix reloads and health checks. */
    public void start() {
        urlPrefixes.start();
        health.start();
    }

    public DispatcherConfig config() {
        return config;
    }

    /** Re-encryption to the servers, termination and end-to-end TLS. */
    public TlsConfig tls() {
        return tls;
    }

    public Topology topology() {
        return topology;
    }

    public Router router() {
        return router;
    }

    public SessionTable sessionTable() {
        return sessionTable;
    }

    public HealthChecker health() {
        return health;
    }

    public UrlPrefixLoader urlPrefixes() {
        return urlPrefixes;
    }

    @Override
    public void close() {
        health.close();
        urlPrefixes.close();
        sessionTable.close();
    }

    @Override
    public String toString() {
        return "Dispatcher[" + topology + ", " + sessionTable + "]";
    }
}
