package org.jwd.discovery;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.jwd.tls.TlsConfig;

/**
 * Fetches one list: over HTTP or HTTPS (the message server's {@code MSSPORT}, an HTTPS-only application server),
 * trusting {@code wdisp/ssl_truststore} (else the JDK's CAs) and checking the host name, or from a {@code file:}
 * URI. A status other than 200, a redirect, a timeout ({@code wdisp/info_timeout}) or a body over 4 MB is a failure.
 */
public class InfoFetcher {
    private static final int MAX_BODY = 4 * 1024 * 1024;

    private final HttpClient client;
    private final Duration timeout;

    /** @throws IOException naming the truststore when it cannot be read */
    public InfoFetcher(TlsConfig tls, Duration timeout) throws IOException {
        this.timeout = timeout;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (tls != null && tls.servers().trustStore() != null) {
            builder.sslContext(sslContext(tls));
        }
        this.client = builder.build();
    }

    /** For tests that fetch nothing over the network. */
    protected InfoFetcher() {
        this.client = null;
        this.timeout = Duration.ZERO;
    }

    private static SSLContext sslContext(TlsConfig tls) throws IOException {
        try {
            KeyStore store = tls.servers().loadTrustStore();
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException(TlsConfig.TRUSTSTORE + " = '" + tls.servers().trustStore() + "' cannot be used: " + e,
                    e);
        }
    }

    /** The body at {@code url}. */
    public String fetch(URI url) throws IOException, InterruptedException {
        if ("file".equalsIgnoreCase(url.getScheme())) {
            byte[] bytes = Files.readAllBytes(Path.of(url));
            return new String(bytes, 0, Math.min(bytes.length, MAX_BODY), StandardCharsets.UTF_8);
        }
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET().header("Accept", "text/plain")
                .build();
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IOException("status " + response.statusCode() + ", expected 200");
        }
        byte[] body = response.body();
        if (body.length > MAX_BODY) {
            throw new IOException("an answer of " + body.length + " bytes, more than a list of " + MAX_BODY);
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The exception and its causes: the JDK client's ConnectException alone has no message at all. */
    static String describe(Throwable e) {
        boolean plain = e instanceof InfoFormatException || e.getClass() == IOException.class;
        StringBuilder sb = new StringBuilder(plain && e.getMessage() != null ? e.getMessage() : e.toString());
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            sb.append(" (").append(cause).append(')');
        }
        return sb.toString();
    }
}
