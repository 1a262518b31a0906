package org.jwd.cli;

import java.io.Console;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;

import org.jwd.admin.AdminJson;
import org.jwd.admin.CrossSiteCheck;

/**
 * How the command-line tools ask a running jwd's administration API: HTTP Basic credentials (the password from
 * {@code JWD_ADMIN_PASSWORD}, or asked on the terminal), JSON answers; an action as the page sends it, a POST with
 * {@value CrossSiteCheck#HEADER} and an {@code Origin} naming the jwd. A refusal is said on standard error in words.
 */
final class ApiClient {
    /** Why a command stops, with its exit code, once said on standard error. */
    static final class Stop extends Exception {
        final int code;

        Stop(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    private final String tool;
    private final String base;
    private final String prefix;
    private final String user;
    private final String password;
    private final PrintStream err;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * @param tool   how messages name the tool ({@code jwd drain})
     * @param url    the jwd, {@code http://host:port}
     * @param prefix the administration's {@code PREFIX} ({@code /jwd/admin})
     */
    ApiClient(String tool, String url, String prefix, String user, Function<String, String> env, PrintStream err)
            throws Stop {
        this.tool = tool;
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.prefix = prefix;
        this.user = user;
        this.err = err;
        this.password = password(tool, user, env, err);
    }

    /** {@code JWD_ADMIN_PASSWORD}, or asked for on the terminal. */
    static String password(String tool, String user, Function<String, String> env, PrintStream err) throws Stop {
        String password = env.apply("JWD_ADMIN_PASSWORD");
        if (password != null) {
            return password;
        }
        Console console = System.console();
        if (console == null) {
            err.println(tool + ": set JWD_ADMIN_PASSWORD, or run it on a terminal to be asked");
            throw new Stop(1);
        }
        char[] typed = console.readPassword("Password for %s: ", user);
        return typed == null ? "" : new String(typed);
    }

    /** {@code GET <prefix>/api/<path>}: the answer's JSON. */
    JsonNode get(String path) throws Stop {
        return send(HttpRequest.newBuilder(uri(path)).GET(), path);
    }

    /** {@code POST <prefix>/api/<path>} as the page sends an action: the answer's JSON. */
    JsonNode post(String path) throws Stop {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody())
                .header(CrossSiteCheck.HEADER, "1").header("Origin", base), path);
    }

    /** {@code POST <prefix>/api/<path>} with a JSON body, as the page sends it: the answer's JSON. */
    JsonNode post(String path, String json) throws Stop {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(json))
                .header("Content-Type", "application/json").header(CrossSiteCheck.HEADER, "1")
                .header("Origin", base), path);
    }

    private URI uri(String path) throws Stop {
        try {
            return URI.create(base + prefix + "/api/" + path);
        } catch (IllegalArgumentException e) {
            err.println(tool + ": --url '" + base + "' is not a URL");
            throw new Stop(2);
        }
    }

    private JsonNode send(HttpRequest.Builder request, String path) throws Stop {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            response = client.send(request.timeout(Duration.ofSeconds(30)).header("Authorization", "Basic "
                    + credentials).header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            err.println(tool + ": cannot connect to " + base + ": connection refused");
            throw new Stop(1);
        } catch (Exception e) {
            err.println(tool + ": cannot ask " + base + prefix + "/api/" + path + ": " + e);
            throw new Stop(1);
        }
        JsonNode json = json(response.body());
        String error = json != null && json.hasNonNull("error") ? json.get("error").asText() : null;
        String refusal = switch (response.statusCode()) {
            case 200, 201 -> null;
            case 401 -> base + " refused the credentials of user " + user;
            case 404 -> error != null ? error : base + " has no administration at " + prefix
                    + " (admin.user is not set, or icm/HTTP/admin_<xx> serves it elsewhere: --url, --prefix)";
            case 429 -> "too many wrong credentials: try again in "
                    + response.headers().firstValue("Retry-After").orElse("a few") + " s";
            default -> response.statusCode() + ": " + (error != null ? error : response.body().strip());
        };
        if (refusal != null && !(response.statusCode() == 422 && json != null)) {
            err.println(tool + ": " + refusal);
            throw new Stop(1);
        }
        return json;
    }

    private static JsonNode json(String body) {
        try {
            return AdminJson.readAnswer(body, new TypeReference<JsonNode>() { });
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
