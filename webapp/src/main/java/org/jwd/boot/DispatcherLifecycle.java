package org.jwd.boot;

import java.nio.file.Path;
import java.util.List;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;

import org.jwd.admin.AdminContext;
import org.jwd.admin.AdminServlet;
import org.jwd.config.AdminConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.SapProfile;
import org.jwd.config.Version;
import org.jwd.proxy.ClientExecutor;
import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.ConfigReader;
import org.jwd.runtime.Dispatcher;
import org.jwd.tls.ClientTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the configuration when the webapp starts and fails the start, with every problem logged, when it
 * cannot be used: a dispatcher either runs with the whole configuration or not at all. Then it has the
 * {@link Bootstrap} build and start everything, and hands the servlets their parts through the servlet context.
 * Outside Jetty it also gives the proxy's HTTP client its threads ({@link ClientExecutor}).
 */
public final class DispatcherLifecycle implements ServletContextListener {
    private static final Logger LOG = LoggerFactory.getLogger(DispatcherLifecycle.class);
    private static final String EXECUTOR_ATTRIBUTE = ClientExecutor.class.getName();
    private static final String BOOTSTRAP_ATTRIBUTE = Bootstrap.class.getName();
    /** Marks readiness stopping at the JVM's shutdown; removed when the webapp stops first (a redeploy). */
    private Thread stopHook;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        DispatcherConfig config;
        Bootstrap bootstrap;
        Path file = null;
        try {
            file = ConfigLoader.locate();
            config = ConfigReader.load(file);
            bootstrap = Bootstrap.build(config, file);
        } catch (ConfigException e) {
            for (String problem : e.problems()) {
                LOG.error("jwd: configuration error: {}", problem);
            }
            throw new IllegalStateException("jwd: invalid configuration" + (file == null ? "" : " in " + file)
                    + ":" + System.lineSeparator() + e.getMessage());
        }
        ServletContext context = event.getServletContext();
        ClientExecutor executor = ClientExecutor.provide(context, config.forwarding().clientThreads());
        context.setAttribute(EXECUTOR_ATTRIBUTE, executor);
        bootstrap.start();
        ReloadSignal.install(bootstrap.reloader());
        context.setAttribute(BOOTSTRAP_ATTRIBUTE, bootstrap);
        context.setAttribute(Dispatcher.ATTRIBUTE, bootstrap.dispatcher());
        context.setAttribute(ClientTls.ATTRIBUTE, bootstrap.clientTls());
        context.setAttribute(AdminContext.ATTRIBUTE, AdminContext.of(bootstrap));
        mapAdministration(context, bootstrap.admin());
        stopHook = new Thread(bootstrap.readiness()::stopping, "jwd-readiness-stop");
        // A SIGTERM runs the JVM's shutdown hooks at once, beside Jetty's own stop: /jwd/health/ready answers 503
        // from that moment, before the container closes anything.
        Runtime.getRuntime().addShutdownHook(stopHook);
        LOG.info("jwd: {} starting: configuration {} loaded: {} servers, strategy {}, HTTP client on {}",
                Version.CURRENT, file, config.servers().size(), config.loadBalancingStrategy(), executor);
        List<String> notUsed = config.sections().find(SapProfile.class).map(SapProfile::notUsed).orElse(List.of());
        if (!notUsed.isEmpty()) {
            LOG.info("jwd: SAP profile lines read, not used: {}", String.join(", ", notUsed));
        }
    }

    /**
     * Maps the administration at each distinct {@code PREFIX} of {@code icm/HTTP/admin_<xx>} ({@code /jwd/admin}
     * without one): more specific than the dispatcher's {@code /*}, so those requests never reach a server.
     */
    private static void mapAdministration(ServletContext context, AdminConfig admin) {
        ServletRegistration.Dynamic servlet = context.addServlet("admin", AdminServlet.class);
        servlet.setLoadOnStartup(2);
        servlet.addMapping(admin.entries().stream().map(e -> e.prefix() + "/*").distinct().toArray(String[]::new));
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (event.getServletContext().getAttribute(BOOTSTRAP_ATTRIBUTE) instanceof Bootstrap bootstrap) {
            bootstrap.readiness().stopping();
            removeStopHook();
            bootstrap.close();
        }
        // The servlet stopped its client before this (servlets are destroyed before the context's listeners hear).
        if (event.getServletContext().getAttribute(EXECUTOR_ATTRIBUTE) instanceof ClientExecutor executor) {
            executor.close();
        }
    }

    private void removeStopHook() {
        if (stopHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopHook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping: the hook runs, or ran
            }
            stopHook = null;
        }
    }
}
