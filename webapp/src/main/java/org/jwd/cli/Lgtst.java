package org.jwd.cli;

import java.io.Console;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;

import org.jwd.admin.AdminJson;
import org.jwd.admin.ErrorView;
import org.jwd.admin.GroupView;
import org.jwd.config.ConfigException;

/**
 * {@code bin/jwd lgtst [--config FILE | --url http://host:port] --group G [--system SID] [--user U]}: like SAP's
 * {@code lgtst}, prints the servers
 * of a group with their quality (or load factor) and the group's favorite. For a logon group these are what
 * SAP's message server would report (its type's qualities, the favorite it would hand a logon client, and
 * SAP's {@code [TRUE]} / {@code [FALSE]} external RFC flag, {@code logon_group.<G>.ext_rfc}, at the end of
 * the favorite line, where SAP's lgtst ends its line of the group), and the title says what balances the
 * group's HTTP requests; for an internal group the favorite is where the next new request goes. It asks the
 * admin API ({@code api/groups}) where the configuration says it answers ({@link AdminAddress}: {@code --config},
 * {@code --url}, {@code --prefix}); the password comes from {@code JWD_ADMIN_PASSWORD}, or is asked for on the
 * terminal. Without {@code --group}, every group is printed.
 *
 * <p>With {@code wdisp/system_<xx>} systems each system has its own groups, as each SAP system has its own message
 * server: {@code --system SID} prints that system's, exactly as lgtst prints a jwd's without systems; without it,
 * every system's are printed, each system's under a heading with its SID ({@code system ERP}), as if lgtst had
 * asked each system's message server in turn. A SID the jwd has not, or {@code --system} against a jwd without
 * systems, is an error naming the systems there are.
 *
 * <pre>
 * group PORTAL (logon group type B, j2ee servers, HTTP by weighted_round_robin)
 * -----------------------------------------------------------------------------
 * [j2ee1] [http://10.0.0.1:50000] [up] [capacity 2] [quality 2000]
 * [j2ee2] [http://10.0.0.2:50000] [up] [capacity 1] [quality 1000]
 * favorite: [j2ee1] [http://10.0.0.1:50000] [TRUE]
 * </pre>
 */
public final class Lgtst {
    private Lgtst() {
    }

    public static void main(String[] args) {
        int code = run(args, System::getenv, System.out, System.err);
        System.exit(code);
    }

    /**
     * The command line: {@code --config}, {@code --url}, {@code --prefix} (where the administration is),
     * {@code --group}, {@code --system}, {@code --user}.
     *
     * @param address where the administration is, as {@link AdminAddress} finds it
     * @param group   {@code null}: every group
     * @param system  {@code null}: every system's groups
     */
    private record Options(AdminAddress address, String group, String system, String user) {
        String url() {
            return address.url();
        }
    }

    /** Why the command stops, and with which exit code, once said on standard error. */
    private static final class Stop extends Exception {
        private final int code;

        Stop(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    /** The command without exiting: 0 done, 1 failed (unreachable, refused, no such group), 2 usage. */
    static int run(String[] args, Function<String, String> env, PrintStream out, PrintStream err) {
        try {
            Options options = options(args, env, err);
            String base = options.url().endsWith("/") ? options.url().substring(0, options.url().length() - 1)
                    : options.url();
            String password = password(options.user(), env, err);
            URI uri = groupsUri(base, options, err);
            HttpResponse<String> response = ask(uri, base, options.user(), password, err);
            List<GroupView> groups;
            try {
                groups = AdminJson.readAnswer(response.body(), new TypeReference<List<GroupView>>() { });
            } catch (JsonProcessingException e) {
                err.println("jwd lgtst: " + uri + " did not answer a list of groups: " + e.getOriginalMessage());
                return 1;
            }
            return report(groups, options, base, out, err);
        } catch (Stop stop) {
            return stop.code;
        }
    }

    /** Prints the groups the jwd answered: 0; or says why there is nothing to print: 1. */
    private static int report(List<GroupView> groups, Options options, String base, PrintStream out, PrintStream err) {
        if (options.system() != null && groups.stream().anyMatch(g -> g.system() == null)) {
            // a jwd older than systems answers every group, ignoring ?system=
            err.println("jwd lgtst: " + base + " has no systems (no wdisp/system_<xx> is configured): leave out"
                    + " --system " + options.system());
            return 1;
        }
        if (groups.isEmpty()) {
            err.println("jwd lgtst: " + base + " has no group " + options.group()
                    + (options.system() == null ? "" : " in system " + options.system()));
            return 1;
        }
        if (options.system() == null) {
            printBySystem(groups, out);
        } else {
            print(groups, out);
        }
        return 0;
    }

    private static Options options(String[] args, Function<String, String> env, PrintStream err) throws Stop {
        Map<String, String> where = new HashMap<>();
        String group = null;
        String system = null;
        String user = env.apply("JWD_ADMIN_USER");
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--url", "--prefix", "--config" -> where.put(a, value);
                case "--group" -> group = value;
                case "--system" -> system = value;
                case "--user" -> user = value;
                default -> throw usage(err, "unknown option '" + a + "'");
            }
            if (value == null) {
                throw usage(err, a + " needs a value");
            }
            i++;
        }
        if (system != null && system.isEmpty()) {
            throw usage(err, "--system needs a SID, e.g. --system ERP");
        }
        try {
            return new Options(AdminAddress.of(where.get("--url"), where.get("--prefix"), where.get("--config"), env),
                    group, system, user == null || user.isEmpty() ? "admin" : user);
        } catch (ConfigException e) {
            err.println("jwd lgtst: " + AdminAddress.problems(where.get("--config"), e));
            throw new Stop(2);
        }
    }

    /** {@code JWD_ADMIN_PASSWORD}, or asked for on the terminal. */
    private static String password(String user, Function<String, String> env, PrintStream err) throws Stop {
        String password = env.apply("JWD_ADMIN_PASSWORD");
        if (password != null) {
            return password;
        }
        Console console = System.console();
        if (console == null) {
            err.println("jwd lgtst: set JWD_ADMIN_PASSWORD, or run it on a terminal to be asked");
            throw new Stop(1);
        }
        char[] typed = console.readPassword("Password for %s: ", user);
        return typed == null ? "" : new String(typed);
    }

    private static URI groupsUri(String base, Options options, PrintStream err) throws Stop {
        try {
            List<String> query = new ArrayList<>();
            if (options.group() != null) {
                query.add("name=" + URLEncoder.encode(options.group(), StandardCharsets.UTF_8));
            }
            if (options.system() != null) {
                query.add("system=" + URLEncoder.encode(options.system(), StandardCharsets.UTF_8));
            }
            return URI.create(base + options.address().prefix() + "/api/groups"
                    + (query.isEmpty() ? "" : "?" + String.join("&", query)));
        } catch (IllegalArgumentException e) {
            throw usage(err, "--url '" + options.url() + "' is not a URL");
        }
    }

    /** Asks the admin API; an answer other than 200 is said on {@code err}. */
    private static HttpResponse<String> ask(URI uri, String base, String user, String password, PrintStream err)
            throws Stop {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            response = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Basic " + credentials).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            err.println("jwd lgtst: cannot connect to " + base + ": connection refused");
            throw new Stop(1);
        } catch (Exception e) {
            err.println("jwd lgtst: cannot ask " + uri + ": " + e);
            throw new Stop(1);
        }
        String refusal = switch (response.statusCode()) {
            case 200 -> null;
            case 401 -> base + " refused the credentials of user " + user;
            // the API's own 404 says what it has not (a system); the interface being off answers no JSON
            case 404 -> apiError(response.body()) != null ? base + ": " + apiError(response.body())
                    : base + " has no administration interface (admin.user is not set)";
            case 429 -> "too many wrong credentials: try again in "
                    + response.headers().firstValue("Retry-After").orElse("a few") + " s";
            default -> uri + " answered " + response.statusCode() + ": " + response.body().strip();
        };
        if (refusal != null) {
            err.println("jwd lgtst: " + refusal);
            throw new Stop(1);
        }
        return response;
    }

    /** The message of the API's {@code {"error": "..."}}, or {@code null} when the body is not one. */
    private static String apiError(String body) {
        try {
            ErrorView error = AdminJson.readAnswer(body, new TypeReference<ErrorView>() { });
            return error == null ? null : error.error();
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Prints every system's groups, each system's under a heading with its SID, in the order the jwd lists them;
     * groups of no system (a jwd without systems) as {@link #print} does.
     */
    static void printBySystem(List<GroupView> groups, PrintStream out) {
        Map<String, List<GroupView>> bySystem = new LinkedHashMap<>();
        groups.forEach(g -> bySystem.computeIfAbsent(String.valueOf(g.system()), k -> new ArrayList<>()).add(g));
        boolean first = true;
        for (List<GroupView> ofSystem : bySystem.values()) {
            if (!first) {
                out.println();
            }
            first = false;
            String system = ofSystem.get(0).system();
            if (system != null) {
                String heading = "system " + system;
                out.println(heading);
                out.println("=".repeat(heading.length()));
            }
            print(ofSystem, out);
        }
    }

    /** Prints each group: its members, their quality or load factor, and the favorite. */
    static void print(List<GroupView> groups, PrintStream out) {
        boolean first = true;
        for (GroupView g : groups) {
            if (!first) {
                out.println();
            }
            first = false;
            boolean logon = "logon".equals(g.kind());
            String title = "group " + g.name() + " ("
                    + (logon ? "logon group type " + g.logonGroupType() + ", " : "internal group, ")
                    + g.type() + " servers" + (g.secure() ? ", https" : "")
                    + (logon ? ", HTTP by " + g.strategy() : "") + ")";
            out.println(title);
            out.println("-".repeat(title.length()));
            if (g.members().isEmpty()) {
                out.println("no servers");
            }
            GroupView.Member favorite = null;
            for (GroupView.Member m : g.members()) {
                // the value as the API wrote it: a quality of 1000, not 1000.0
                out.println("[" + m.id() + "] [" + m.url() + "] [" + m.state() + "] [capacity " + m.capacity()
                        + "] [" + g.measure() + " " + AdminJson.write(m.value()) + "]");
                if (m.id().equals(g.favorite())) {
                    favorite = m;
                }
            }
            out.println("favorite: " + (favorite == null ? "none (no server takes new requests)"
                    : "[" + favorite.id() + "] [" + favorite.url() + "]")
                    + (logon ? " [" + (Boolean.FALSE.equals(g.extRfc()) ? "FALSE" : "TRUE") + "]" : ""));
        }
    }

    private static Stop usage(PrintStream err, String problem) {
        err.println("jwd lgtst: " + problem);
        err.println("usage: bin/jwd lgtst [--config FILE] [--url http://host:port] [--prefix P] [--group G]"
                + " [--system SID] [--user U]   (password: JWD_ADMIN_PASSWORD)");
        return new Stop(2);
    }
}
