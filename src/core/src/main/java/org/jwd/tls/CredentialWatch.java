package org.jwd.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews what jwd presents when its files change, without a restart: every interval the files of each listener's
 * credentials (and the password file a {@code ${file:...}} names) are compared by size, modification time and file
 * key, as the configuration's watch compares its files. A changed set is opened first ({@link KeyMaterial#load}) and
 * only a whole one is handed on: new handshakes get the new certificate, open connections keep theirs. Files that do
 * not open keep the keys in force; the problem is logged once per change and shown ({@link #status}) until a later
 * change opens. Jetty's {@code KeyStoreScanner} was the model: it reloads from the path and, when the file does not
 * open, leaves the listener failing every handshake.
 *
 * <p>It also warns of certificates that expire within {@link CertificateInfo#WARN_BEFORE}: at the first round and
 * then once a day while they do.
 */
public final class CredentialWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CredentialWatch.class);

    /** Hands renewed keys to what presents them (a Jetty TLS factory's reload). */
    @FunctionalInterface
    public interface Renewal {
        void renew(KeyMaterial keys) throws Exception;
    }

    private static final class Watched {
        final String listener;
        final Credentials credentials;
        final Renewal renewal;
        List<Object> signature;
        KeyMaterial keys;
        Instant loadedAt;
        String problem;

        Watched(String listener, Credentials credentials, Renewal renewal) {
            this.listener = listener;
            this.credentials = credentials;
            this.renewal = renewal;
        }
    }

    private final Clock clock;
    private final Consumer<TlsStatus> publish;
    private final List<Watched> watched = new ArrayList<>(); // guarded by this
    private final ExpiryWarnings expiry = new ExpiryWarnings(); // guarded by this
    private ScheduledExecutorService scheduler;

    /** @param publish told the status after every round that changed it */
    public CredentialWatch(Clock clock, Consumer<TlsStatus> publish) {
        this.clock = clock;
        this.publish = publish;
    }

    /** Watches {@code credentials}, presented now as {@code keys}, for {@code listener}. */
    public synchronized void add(String listener, Credentials credentials, KeyMaterial keys, Renewal renewal) {
        Watched w = new Watched(listener, credentials, renewal);
        w.signature = signature(credentials);
        w.keys = keys;
        w.loadedAt = clock.instant();
        watched.add(w);
    }

    /** Publishes the status and warns of what expires soon, then checks every {@code interval}; 0: never again. */
    public synchronized void start(Duration interval) {
        warnOfExpiry();
        publish.accept(status());
        if (interval.isZero() || watched.isEmpty()) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jwd-tls-watch");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::checkQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.warn("jwd: checking the TLS credentials' files failed: {}", e.toString());
        }
    }

    /** One round: renews what changed, warns of what expires soon; publishes the status when it changed. */
    public synchronized void check() {
        boolean changed = false;
        for (Watched w : watched) {
            List<Object> now = signature(w.credentials);
            if (!now.equals(w.signature)) {
                w.signature = now;
                renew(w);
                changed = true;
            }
        }
        warnOfExpiry();
        if (changed) {
            publish.accept(status());
        }
    }

    private void renew(Watched w) {
        try {
            KeyMaterial keys = KeyMaterial.load(w.credentials);
            w.renewal.renew(keys);
            w.keys = keys;
            w.loadedAt = clock.instant();
            w.problem = null;
            LOG.info("jwd: {}: renewed from {}: {}", w.listener, w.credentials.files(), keys);
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            w.problem = e.getMessage();
            LOG.warn("jwd: {}: a changed file does not open, so the certificates read at {} stay: {}", w.listener,
                    w.loadedAt, e.getMessage());
        } catch (Exception e) {
            w.problem = "renewal failed: " + KeyMaterial.reason(e);
            LOG.warn("jwd: {}: renewing from {} failed, so the certificates read at {} stay: {}", w.listener,
                    w.credentials.files(), w.loadedAt, e.toString());
        }
    }

    private void warnOfExpiry() {
        Instant now = clock.instant();
        for (Watched w : watched) {
            expiry.due(now, w.listener, w.keys.certificates(), w.credentials.files())
                    .forEach(warning -> LOG.warn("jwd: {}", warning));
        }
    }

    /** What each listener presents now, and why a change was not taken. */
    public synchronized TlsStatus status() {
        return new TlsStatus(watched.stream().map(w -> new TlsStatus.Presented(w.listener,
                w.credentials.files().toString(), w.keys.certificates(), w.loadedAt, w.problem)).toList());
    }

    /** Size, modification time and file key of each file; a missing file is {@code null}. */
    private static List<Object> signature(Credentials credentials) {
        List<Object> signature = new ArrayList<>();
        for (Path file : credentials.watchedFiles()) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                signature.add(List.of(a.size(), a.lastModifiedTime().toMillis(), String.valueOf(a.fileKey())));
            } catch (IOException e) {
                signature.add("missing");
            }
        }
        return signature;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
