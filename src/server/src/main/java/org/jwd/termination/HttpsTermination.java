package org.jwd.termination;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;
import org.jwd.tls.CredentialWatch;
import org.jwd.tls.HttpsSettings;
import org.jwd.tls.KeyMaterial;
import org.jwd.tls.ServerLevelConfig;
import org.jwd.tls.Termination;
import org.jwd.tls.TlsConfig;
import org.jwd.tls.TlsPolicy;
import org.jwd.tls.TlsStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * jwd's HTTPS listeners in the Jetty distribution, made from the same configuration file as the dispatcher's
 * ({@code jwd.config}), so that no password appears on a command line or in an ini file: the first is Jetty's
 * {@code ssl} module's connector, whose TLS factory {@code jetty-base/etc/jwd-ssl-context.xml} asks for
 * ({@link #sslContextFactory}); the others are copies of it, one per further {@code PROT=HTTPS} line, each with its
 * own factory ({@code jetty-base/etc/jwd-https.xml}, {@link #install}). A bean of the server: while it runs, its
 * {@link CredentialWatch} renews each listener's certificate when its files change, and publishes what they present
 * for the webapp's page and metrics ({@link TlsStatus#PROPERTY}).
 */
public final class HttpsTermination extends ContainerLifeCycle {
    private static final Logger LOG = LoggerFactory.getLogger(HttpsTermination.class);
    /** The {@code jwd.https_line} of the listener {@code --https-port} opens: none, or bin/jwd's {@code -}. */
    static final Set<String> COMMAND_LINE = Set.of("", "-");

    private final Termination termination;
    private final Duration watchInterval;
    private final CredentialWatch watch;

    HttpsTermination(Termination termination, Duration watchInterval, Clock clock) {
        this.termination = termination;
        this.watchInterval = watchInterval;
        this.watch = new CredentialWatch(clock, status -> System.setProperty(TlsStatus.PROPERTY, status.encode()));
    }

    /**
     * The TLS factory of the {@code ssl} module's connector.
     *
     * @param line the {@code icm/server_port_<xx>} it listens for ({@code jwd.https_line}); empty or {@code -} for
     *             {@code --https-port}
     * @throws IllegalStateException when the configuration is invalid (every problem logged) or names no keys for it
     */
    public static SslContextFactory.Server sslContextFactory(Server server, String line) {
        return of(server).factory(line);
    }

    /**
     * Adds a listener per item of {@code listeners} ({@code jwd.https_listeners}: {@code <address>:<port>=<line>},
     * separated by {@code ,}; none for an empty value or {@code -}), each like {@code template} (the {@code ssl}
     * module's connector) with its own factory.
     */
    public static void install(Server server, ServerConnector template, String listeners) {
        HttpsTermination termination = of(server);
        for (HttpsListener listener : HttpsListener.parseAll(listeners)) {
            server.addConnector(HttpsConnectors.copy(server, template, termination.factory(listener.line()),
                    listener.host(), listener.port()));
        }
    }

    /** The server's bean, made by the first call from Jetty's XML. */
    static synchronized HttpsTermination of(Server server) {
        HttpsTermination bean = server.getBean(HttpsTermination.class);
        if (bean == null) {
            DispatcherConfig config;
            try {
                config = ConfigReader.load(ConfigLoader.locate());
            } catch (ConfigException e) {
                throw ServerLevelConfig.fail(e);
            }
            bean = new HttpsTermination(config.section(TlsConfig.class).termination(),
                    config.section(ConfigReader.WatchSection.class).interval(), Clock.systemUTC());
            server.addBean(bean);
        }
        return bean;
    }

    /** A factory for the listener of {@code line}, watched from now on. */
    synchronized SslContextFactory.Server factory(String line) {
        HttpsSettings https = COMMAND_LINE.contains(line) ? termination.commandLine() : termination.ports().get(line);
        if (https == null) {
            throw new IllegalStateException("jwd: no SSL configuration for the HTTPS listener of "
                    + (COMMAND_LINE.contains(line) ? "--https-port" : line) + ": expected " + TlsConfig.KEYSTORE
                    + " or the line's SSLCONFIG");
        }
        KeyMaterial keys;
        try {
            keys = KeyMaterial.load(https.config().credentials());
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("jwd: cannot open " + https.config().credentials() + ": "
                    + e.getMessage(), e);
        }
        SslContextFactory.Server factory = new SslContextFactory.Server();
        TlsPolicy.towardsClients(factory, https, keys);
        String listener = (COMMAND_LINE.contains(line) ? "--https-port" : line) + " (" + https.config().name() + ")";
        watch.add(listener, https.config().credentials(), keys, renewed -> TlsPolicy.renew(factory, renewed));
        LOG.info("jwd: HTTPS {}: {}, {}", listener, https, keys);
        return factory;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        watch.start(watchInterval);
    }

    @Override
    protected void doStop() throws Exception {
        watch.close();
        super.doStop();
    }

    /** The watch, for tests that move its rounds by hand. */
    CredentialWatch watch() {
        return watch;
    }
}
