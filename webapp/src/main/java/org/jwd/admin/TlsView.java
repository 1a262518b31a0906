package org.jwd.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jwd.tls.CertificateInfo;
import org.jwd.tls.TlsStatus;

/**
 * {@code GET api/tls}: the certificates jwd presents, per HTTPS listener and towards the servers, with when they
 * expire and why a changed file was not taken.
 *
 * @param listeners one entry per listener; none without HTTPS (or outside Jetty's distribution, where the container
 *                  terminates TLS itself), and {@code towards the servers (wdisp/ssl_cred)} with {@code wdisp/ssl_auth}
 */
public record TlsView(List<Listener> listeners) {
    /**
     * @param listener     its {@code icm/server_port_<xx>} (or {@code --https-port}) and SSL configuration
     * @param files        the files its keys come from
     * @param loadedAt     when they were read (ISO-8601): at the start, or when they last changed
     * @param problem      why the files, changed since, were not taken (the certificates below stay); {@code null}
     * @param certificates its keys' certificates, the default's first
     */
    public record Listener(String listener, String files, String loadedAt, String problem,
                           List<Certificate> certificates) {
    }

    /**
     * @param expiresInDays whole days left; negative once expired
     * @param expiresSoon   within 30 days (jwd warns in its log then, once a day)
     */
    public record Certificate(String alias, String subject, String issuer, List<String> names, String notAfter,
                              long expiresInDays, boolean expiresSoon) {
    }

    static TlsView of(TlsStatus status, Instant now) {
        return new TlsView(status.presented().stream().map(p -> new Listener(p.listener(), p.files(),
                p.loadedAt().toString(), p.problem(), p.certificates().stream().map(c -> certificate(c, now))
                .toList())).toList());
    }

    private static Certificate certificate(CertificateInfo c, Instant now) {
        return new Certificate(c.alias(), c.subject(), c.issuer(), c.names(), c.notAfter().toString(),
                Duration.between(now, c.notAfter()).toDays(), c.expiresSoon(now));
    }
}
