package org.jwd.admin;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import org.jwd.config.ConfigException;
import org.jwd.loglevel.LogLevels;
import org.jwd.registry.ServerRegistry;
import org.jwd.operator.OperatorStates;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.Reloader;
import org.jwd.topology.Server;

/**
 * The operator's actions under {@code /jwd/admin/api/}: reloading the configuration, draining, disabling and
 * enabling a server, and servers registering and leaving. Each answers with what {@link AdminApi} reads afterwards.
 * Knows nothing of servlets: {@link AdminServlet} does HTTP, credentials and cross-site checks.
 */
final class AdminActions {
    private final AdminContext context;
    private final Dispatcher dispatcher;
    private final AdminApi reads;

    AdminActions(AdminContext context, AdminApi reads) {
        this.context = context;
        this.dispatcher = context.dispatcher();
        this.reads = reads;
    }

    /**
     * {@code POST api/reload}: reads the configuration file again now. 200 when it was applied or unchanged, 422 when
     * it was rejected (the running configuration stays); the body is {@link AdminApi#reloadStatus}.
     */
    AdminApi.Answer reload() {
        Reloader reloader = context.reloader();
        if (reloader == null) {
            return AdminApi.Answer.error(409, "this dispatcher was not started from a configuration file");
        }
        Reloader.Result result = reloader.reload("api");
        return new AdminApi.Answer(result.outcome() == Reloader.Outcome.REJECTED ? 422 : 200, reads.reloadStatus());
    }

    /** As {@link #act(String, String, String)}, by someone unnamed (tests). */
    AdminApi.Answer act(String id, String action) {
        return act(id, action, "api");
    }

    /**
     * {@code POST api/servers/<id>/<action>}: {@code drain}, {@code disable} or {@code enable}, by {@code who}
     * ({@code user from address}); applied at once, kept across restarts and shared with a cluster's nodes where
     * {@link OperatorStates} can; when it cannot, the answer's {@code operator.problem} says why.
     */
    AdminApi.Answer act(String id, String action, String who) {
        Server s = dispatcher.state().topology().server(id);
        if (s == null) {
            return AdminApi.Answer.error(404, "no server " + id);
        }
        Server.AdminState state = switch (action) {
            case "drain" -> Server.AdminState.DRAINED;
            case "disable" -> Server.AdminState.DISABLED;
            case "enable" -> Server.AdminState.ENABLED;
            default -> null;
        };
        if (state == null) {
            return AdminApi.Answer.error(404, "no action " + action + ": drain, disable or enable");
        }
        OperatorStates.Outcome outcome = dispatcher.operator().act(s, state, who);
        ServerView view = reads.server(id);
        return AdminApi.Answer.ok(view == null ? null : view.acted(outcome.problem()));
    }

    /**
     * {@code PUT api/servers/<id>}: a server registers itself or reports again (heartbeat). The body is read by
     * {@link AdminJson#readUntrusted}, its fields by {@link Registration}.
     */
    AdminApi.Answer register(String id, String body) {
        if (dispatcher.isConfigured(id)) {
            // a server id names one server across the systems: another system's server of this id is taken too
            String system = dispatcher.state().systemOf(id);
            return AdminApi.Answer.error(409, "server " + id + " is from the configuration file"
                    + (system == null ? "" : " (system " + system + ")") + ": it cannot register");
        }
        JsonNode json;
        try {
            json = AdminJson.readUntrusted(body);
        } catch (IllegalArgumentException e) {
            return AdminApi.Answer.error(400, e.getMessage());
        }
        Registration.Reported report;
        try {
            report = Registration.parse(id, json, dispatcher.config());
        } catch (ConfigException e) {
            return new AdminApi.Answer(400, new ErrorView("invalid registration of " + id, e.problems()));
        }
        ServerRegistry.Outcome outcome;
        try {
            outcome = dispatcher.register(report.server(), report.system());
        } catch (IllegalArgumentException e) {
            // a reload between the check above and the registration changed the systems or the file's servers
            return AdminApi.Answer.error(409, e.getMessage());
        }
        ServerView server = reads.server(id);
        return new AdminApi.Answer(outcome == ServerRegistry.Outcome.REGISTERED ? 201 : 200,
                server == null ? null : server.registered(outcome.name().toLowerCase(Locale.ROOT)));
    }

    /**
     * {@code POST api/loglevels} with {@code {"logger": "org.jwd.routing", "level": "DEBUG", "for": "10m"}}: sets a
     * logger's level for a while ({@code for} left out: {@link LogLevels#DEFAULT_FOR}), on every node of a cluster;
     * {@code "level": "reset"} returns the logger to its configured level now. The body is read by
     * {@link AdminJson#readUntrusted}; the answer is {@link AdminApi#logLevels}'s, with why the change was not shared
     * when it could not be.
     */
    AdminApi.Answer setLogLevel(String body, String who) {
        if (body == null) {
            return AdminApi.Answer.error(413, "a log level has at most " + AdminJson.MAX_DOCUMENT + " bytes");
        }
        JsonNode json;
        try {
            json = AdminJson.readUntrusted(body);
        } catch (IllegalArgumentException e) {
            return AdminApi.Answer.error(400, e.getMessage());
        }
        String logger = json.path("logger").isTextual() ? json.get("logger").asText() : null;
        String level = json.path("level").isTextual() ? json.get("level").asText() : null;
        if (logger == null || level == null) {
            return AdminApi.Answer.error(400, "a log level is {\"logger\": \"org.jwd.routing\", \"level\": \"DEBUG\","
                    + " \"for\": \"10m\"} (level reset: back to the configured level; for: at most "
                    + org.jwd.config.Durations.format(LogLevels.MAX_FOR) + ")");
        }
        LogLevels levels = context.logLevels();
        LogLevels.Outcome outcome;
        try {
            outcome = level.equalsIgnoreCase("reset") ? levels.reset(logger, who)
                    : levels.set(logger, level, json.path("for").isTextual() ? json.get("for").asText() : null, who);
        } catch (IllegalArgumentException e) {
            return AdminApi.Answer.error(400, e.getMessage());
        } catch (IllegalStateException e) {
            return AdminApi.Answer.error(409, e.getMessage());
        }
        if (outcome == null) {
            return AdminApi.Answer.error(404, "no level is set for " + logger + ": it has its configured level");
        }
        LogLevelsView view = reads.logLevels();
        return AdminApi.Answer.ok(new LogLevelsView(view.changeable(), view.defaultFor(), view.maxFor(), view.kept(),
                outcome.problem(), view.levels(), view.loggers()));
    }

    /** {@code DELETE api/servers/<id>}: a registered server leaves. */
    AdminApi.Answer deregister(String id) {
        if (dispatcher.isConfigured(id)) {
            return AdminApi.Answer.error(409, "server " + id + " is from the configuration file: it cannot deregister");
        }
        return dispatcher.deregister(id) ? AdminApi.Answer.ok(new RemovedView(id))
                : AdminApi.Answer.error(404, "server " + id + " is not registered");
    }
}
