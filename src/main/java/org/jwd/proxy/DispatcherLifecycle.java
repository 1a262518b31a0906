package org.jwd.proxy;

import java.nio.file.Path;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

import org.jwd.Dispatcher;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the configuration when the webapp starts and fails the start, with every problem logged, when it
 * cannot be used: a dispatcher either runs with the whole configuration or not at all. Outside Jetty it also
 * gives the proxy's HTTP client its threads ({@link ClientExecutor}).
 */
public final class DispatcherLifecycle implements ServletContextListener {
    private static final Logger LOG = LoggerFactory.getLogger(DispatcherLifecycle.class);
    private static final String EXECUTOR_ATTRIBUTE = ClientExecutor.class.getName();

    @Override
    public void contextInitialized(ServletContextEvent event) {
        DispatcherConfig config;
        Dispatcher dispatcher;
        Path file = null;
        try {
            file = ConfigLoader.locate();
            config = ConfigReader.load(file);
            dispatcher = new Dispatcher(config);
        } catch (ConfigException e) {
            for (String problem : e.problems()) {
                LOG.error("jwd: configuration error: {}", problem);
            }
            throw new IllegalStateException("jwd: invalid configuration" + (file == null ? "" : " in " + file)
                    + ":" + System.lineSeparator() + e.getMessage());
        }
        ClientExecutor executor = ClientExecutor.provide(event.getServletContext(), config.clientThreads());
        event.getServletContext().setAttribute(EXECUTOR_ATTRIBUTE, executor);
        dispatcher.start();
        dispatcher.watch(file);
        event.getServletContext().setAttribute(Dispatcher.ATTRIBUTE, dispatcher);
        LOG.info("jwd: configuration {} loaded: {} servers, strategy {}, HTTP client on {}", file,
                config.servers().size(), config.loadBalancingStrategy(), executor);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        Object dispatcher = event.getServletContext().getAttribute(Dispatcher.ATTRIBUTE);
        if (dispatcher instanceof Dispatcher d) {
            d.close();
        }
        // The servlet stopped its client before this (servlets are destroyed before the context's listeners hear).
        if (event.getServletContext().getAttribute(EXECUTOR_ATTRIBUTE) instanceof ClientExecutor executor) {
            executor.close();
        }
    }
}
