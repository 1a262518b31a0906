package org.jwd.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One client of the soak's and the reload storm's load: a sticky one (a {@code JSESSIONID} of its own, the portal's
 * path) or a stateless one (the ping), one request at a time, each answer read whole and told apart as the loads
 * count it.
 */
final class LoadClient {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI uri;
    private final String sessionId;

    /**
     * @param jwd        the dispatcher's base URI
     * @param stickyPath the path a sticky client asks for
     * @param sessionId  its {@code JSESSIONID}; null for a stateless client
     */
    LoadClient(URI jwd, String stickyPath, String sessionId) {
        this.uri = jwd.resolve(sessionId == null ? "/sap/public/icman/ping" : stickyPath);
        this.sessionId = sessionId;
    }

    /** What one request met: the server that answered (its {@code X-Served-By}) and an error, if any. */
    record Answer(String servedBy, String error) {
    }

    /** Sends one request and reads its answer; an error is a status other than 200 or a failed connection. */
    Answer send() throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
        if (sessionId != null) {
            request.header("Cookie", "JSESSIONID=" + sessionId);
        }
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.headers().firstValue("X-Served-By").orElse(null),
                    response.statusCode() == 200 ? null : "status " + response.statusCode());
        } catch (IOException e) {
            return new Answer(null, "connection: " + e.getClass().getSimpleName());
        }
    }
}
