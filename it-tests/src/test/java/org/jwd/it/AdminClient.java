package org.jwd.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.htmlunit.BrowserVersion;
import org.htmlunit.DefaultCredentialsProvider;
import org.htmlunit.WebClient;
import org.jwd.config.PasswordHash;

/**
 * Talks to a jwd's administration interface as an operator's scripts would: HTTP Basic credentials, JSON. The
 * configuration lines {@link #CONFIG} turn the interface on with user {@value #USER} / {@value #PASSWORD}; the
 * hash uses few iterations so that tests of wrong passwords stay fast.
 */
final class AdminClient {
    static final String USER = "admin";
    static final String PASSWORD = "correct horse";
    static final String CONFIG = "admin.user=" + USER + "\nadmin.password_hash="
            + PasswordHash.create(PASSWORD.toCharArray(), 10_000) + "\n";

    private final JwdProcess jwd;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    AdminClient(JwdProcess jwd) {
        this.jwd = jwd;
    }

    /**
     * HtmlUnit as an operator's browser on the admin page: Chrome's version, {@value #USER}'s credentials on every
     * request, a script error fails the test (the page's own code is under test), no CSS (nothing reads layout).
     */
    static WebClient browser() {
        WebClient web = new WebClient(BrowserVersion.CHROME);
        web.getOptions().setCssEnabled(false);
        web.getOptions().setThrowExceptionOnScriptError(true);
        DefaultCredentialsProvider credentials = new DefaultCredentialsProvider();
        credentials.addCredentials(USER, PASSWORD.toCharArray());
        web.setCredentialsProvider(credentials);
        return web;
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(jwd.uri(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", basic(USER, PASSWORD));
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            try {
                return http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException stale) {
                // A pooled connection the server closed after its previous answer (Jetty closes one whose
                // request body was refused unread) gives no bytes at all: the request was never answered, so
                // it is sent once more, on a new connection. java.net.http does this itself only for GETs.
                if (!String.valueOf(stale.getMessage()).contains("received no bytes")) {
                    throw stale;
                }
                return http.send(request, HttpResponse.BodyHandlers.ofString());
            }
        } catch (IOException e) {
            throw new IllegalStateException(request + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path) {
        return send(request(path).build());
    }

    /** GET with credentials, expecting 200 and JSON. */
    Object json(String path) {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + ": " + r.statusCode() + " " + r.body());
        }
        return ClientJson.parse(r.body());
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> object(String path) {
        return (Map<String, Object>) json(path);
    }

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> list(String path) {
        return (List<Map<String, Object>>) json(path);
    }

    /** The server {@code id} as {@code api/servers/<id>} shows it. */
    Map<String, Object> server(String id) {
        return object("/jwd/admin/api/servers/" + id);
    }

    /** An action as the admin page sends it: POST with the custom header and this host's Origin. */
    HttpResponse<String> act(String id, String action) {
        return send(request("/jwd/admin/api/servers/" + id + "/" + action).header("X-Jwd-Admin", "1")
                .header("Origin", jwd.uri().toString()).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** A registration or heartbeat: PUT with the JSON body. */
    HttpResponse<String> register(String id, String json) {
        return send(request("/jwd/admin/api/servers/" + id).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** A plain GET through the dispatcher (no credentials), returning the response. */
    HttpResponse<String> through(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(jwd.uri(path)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    /** Status line and headers of a GET sent from {@code localAddress} (another loopback address, say). */
    static String rawGet(URI base, String localAddress, String path, String authorization) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(localAddress, 0));
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                    + "\r\nAuthorization: " + authorization + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
