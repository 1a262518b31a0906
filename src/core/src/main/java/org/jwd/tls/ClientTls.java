package org.jwd.tls;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * jwd as the servers' TLS client: every TLS factory it makes towards them (the proxy's, the health checks') is made
 * here from {@link Reencryption}, and kept, so that a renewed {@code wdisp/ssl_cred} file reaches them all without a
 * restart ({@link CredentialWatch}), and so that the certificate jwd presents is shown beside the listeners'.
 */
public final class ClientTls implements AutoCloseable {
    /** Where the webapp hands it to its servlets: a servlet context attribute of this name. */
    public static final String ATTRIBUTE = ClientTls.class.getName();
    /** How the client certificate is named beside the listeners. */
    public static final String LISTENER = "towards the servers (" + Reencryption.CRED + ")";

    private final Reencryption servers;
    /** The client certificate's keys in force; {@code null} without one. */
    private final AtomicReference<KeyMaterial> keys;
    private final List<SslContextFactory.Client> factories = new CopyOnWriteArrayList<>();
    private final CredentialWatch watch;

    /** @throws IOException or GeneralSecurityException when the client certificate's file does not open */
    public ClientTls(Reencryption servers, Clock clock) throws IOException, GeneralSecurityException {
        this.servers = servers;
        this.keys = new AtomicReference<>(servers.credentials() == null ? null
                : KeyMaterial.load(servers.credentials()));
        this.watch = new CredentialWatch(clock, status -> { });
        if (keys.get() != null) {
            watch.add(LISTENER, servers.credentials(), keys.get(), renewed -> {
                keys.set(renewed);
                for (SslContextFactory.Client factory : factories) {
                    TlsPolicy.renew(factory, renewed);
                }
            });
        }
    }

    /** A factory towards the servers, presenting jwd's client certificate in force with {@code wdisp/ssl_auth}. */
    public SslContextFactory.Client newFactory() throws IOException, GeneralSecurityException {
        SslContextFactory.Client factory = TlsPolicy.towardsServers(servers, keys.get());
        factories.add(factory);
        return factory;
    }

    /** Warns of an expiring client certificate, then checks its file every {@code interval} (0: never). */
    public void start(Duration interval) {
        watch.start(interval);
    }

    /** The client certificate jwd presents; none without {@code wdisp/ssl_auth}. */
    public TlsStatus status() {
        return watch.status();
    }

    /**
     * The certificates jwd presents: its HTTPS listeners' (published by the server level, none outside Jetty's
     * distribution) and this client certificate.
     */
    public TlsStatus everyCertificate() {
        return TlsStatus.published().with(watch.status().presented());
    }

    /** The settings it was made from. */
    public Reencryption servers() {
        return servers;
    }

    @Override
    public void close() {
        watch.close();
    }
}
