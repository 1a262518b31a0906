package org.jwd.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import org.jwd.config.ConfigException;

/**
 * {@code bin/jwd drain|disable|enable SERVER}, {@code bin/jwd reload} and {@code bin/jwd status}: the operator's
 * actions and a look at a running jwd from the command line, each one request to its administration API
 * ({@code api/servers/<id>/<action>}, {@code api/reload}, {@code api/status} and {@code api/servers}), with the
 * credentials of a user of role {@code admin} (for {@code status}, {@code monitor} is enough). Options:
 * {@code --config} (the configuration jwd runs with: where its administration answers, {@link AdminAddress}),
 * {@code --url} and {@code --prefix} (instead of the file's), {@code --user} (default {@code JWD_ADMIN_USER}, else
 * {@code admin}); the password comes from {@code JWD_ADMIN_PASSWORD} or is asked on the terminal.
 *
 * <pre>
 * $ bin/jwd drain j2ee2
 * server j2ee2: drained (state drained since 2026-01-05T10:12:03Z, kept in file .../operator-state.properties)
 * </pre>
 */
public final class Operate {
    private static final String USAGE = "usage: bin/jwd drain|disable|enable SERVER | reload | status"
            + " [--config FILE] [--url http://host:port] [--prefix /jwd/admin] [--user U]"
            + "   (password: JWD_ADMIN_PASSWORD)";

    private Operate() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System::getenv, System.out, System.err));
    }

    /** The command: 0 done, 1 refused or failed (unreachable, no such server, a reload rejected), 2 usage. */
    static int run(String[] args, Function<String, String> env, PrintStream out, PrintStream err) {
        try {
            List<String> words = new ArrayList<>();
            Map<String, String> options = new HashMap<>();
            for (int i = 0; i < args.length; i++) {
                if (List.of("--url", "--user", "--prefix", "--config").contains(args[i])) {
                    if (i + 1 >= args.length) {
                        throw usage(err, args[i] + " needs a value");
                    }
                    options.put(args[i], args[++i]);
                } else {
                    words.add(args[i]);
                }
            }
            String user = options.getOrDefault("--user", env.apply("JWD_ADMIN_USER") == null ? "admin"
                    : env.apply("JWD_ADMIN_USER"));
            return command(words, address(options, env, err), user, env, out, err);
        } catch (ApiClient.Stop stop) {
            return stop.code;
        }
    }

    /** Where the administration is: {@code --url} and {@code --prefix}, else {@code --config}'s, else the defaults. */
    private static AdminAddress address(Map<String, String> options, Function<String, String> env, PrintStream err)
            throws ApiClient.Stop {
        try {
            return AdminAddress.of(options.get("--url"), options.get("--prefix"), options.get("--config"), env);
        } catch (ConfigException e) {
            err.println("jwd: " + AdminAddress.problems(options.get("--config"), e));
            throw new ApiClient.Stop(2);
        }
    }

    private static int command(List<String> words, AdminAddress address, String user,
                               Function<String, String> env, PrintStream out, PrintStream err) throws ApiClient.Stop {
        String url = address.url();
        String command = words.isEmpty() ? "" : words.get(0);
        boolean action = List.of("drain", "disable", "enable").contains(command);
        if (action ? words.size() != 2 : !List.of("reload", "status").contains(command) || words.size() != 1) {
            throw usage(err, words.isEmpty() ? "a command is needed" : "'" + String.join(" ", words)
                    + "': expected drain|disable|enable SERVER, reload or status");
        }
        ApiClient api = new ApiClient("jwd " + command, url, address.prefix(), user, env, err);
        if (action) {
            JsonNode server = api.post("servers/" + words.get(1) + "/" + command);
            JsonNode operator = server.path("operator");
            out.println("server " + server.path("id").asText() + ": " + server.path("admin_state").asText()
                    + " (state " + server.path("state").asText() + " since " + server.path("state_since").asText()
                    + ", kept " + operator.path("kept").asText() + ")");
            if (operator.hasNonNull("problem")) {
                err.println("jwd " + command + ": applied on " + url + " only, not kept: "
                        + operator.get("problem").asText());
                return 1;
            }
            return 0;
        }
        return command.equals("reload") ? reload(api, out, err) : status(api, url, out);
    }

    private static int reload(ApiClient api, PrintStream out, PrintStream err) throws ApiClient.Stop {
        JsonNode reload = api.post("reload");
        out.println("configuration " + reload.path("file").asText() + ": " + reload.path("outcome").asText());
        reload.path("errors").forEach(e -> err.println("  " + e.asText()));
        reload.path("pending_restart").forEach(p -> out.println("  needs a restart: " + p.path("key").asText()));
        return "rejected".equals(reload.path("outcome").asText()) ? 1 : 0;
    }

    private static int status(ApiClient api, String url, PrintStream out) throws ApiClient.Stop {
        JsonNode status = api.get("status");
        JsonNode ready = status.path("ready");
        out.println("jwd " + status.path("version").asText("(version unknown)") + " at " + url + ", up since "
                + status.path("started").asText() + ": " + ready.path("reason").asText());
        out.printf("%-16s %-9s %-9s %-25s %9s %10s %8s%n", "server", "state", "admin", "since", "in flight", "served",
                "errors");
        for (JsonNode s : api.get("servers")) {
            out.printf("%-16s %-9s %-9s %-25s %9d %10d %8d%n", s.path("id").asText(), s.path("state").asText(),
                    s.path("admin_state").asText(), s.path("state_since").asText(), s.path("in_flight").asLong(),
                    s.path("served").asLong(), s.path("errors").asLong());
        }
        return ready.path("ready").asBoolean() ? 0 : 1;
    }

    private static ApiClient.Stop usage(PrintStream err, String problem) {
        err.println("jwd: " + problem);
        err.println(USAGE);
        return new ApiClient.Stop(2);
    }
}
