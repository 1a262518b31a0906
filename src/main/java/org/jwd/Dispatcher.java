package org.jwd;

import org.jwd.config.DispatcherConfig;
import org.jwd.routing.Router;
import org.jwd.topology.Topology;

/**
 * The dispatcher's parts for one configuration, built once at startup: the topology, and the router that
 * turns a request into a decision. The servlets find it in the servlet context under {@link #ATTRIBUTE}.
 */
public final class Dispatcher implements AutoCloseable {
    public static final String ATTRIBUTE = Dispatcher.class.getName();

    private final DispatcherConfig config;
    private final Topology topology;
    private final Router router;

    public Dispatcher(DispatcherConfig config) {
        this.config = config;
        this.topology = Topology.of(config);
        this.router = new Router(config, topology);
    }

    public DispatcherConfig config() {
        return config;
    }

    public Topology topology() {
        return topology;
    }

    public Router router() {
        return router;
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "Dispatcher[" + topology + "]";
    }
}
