package org.jwd.admin;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import org.jwd.limits.ServerSlots;
import org.jwd.metrics.ResponseTimes;
import org.jwd.topology.Server;

/**
 * {@code GET api/servers} (a list of these), {@code api/servers/<id>}, and the answer to an action or a
 * registration.
 *
 * @param httpsUrl    {@code null} when the server takes no HTTPS
 * @param logonGroups the logon groups it belongs to, sorted
 * @param groups      every group it is balanced in: internal ones first, then logon groups
 * @param route       the route suffix of its session ids: configured, or learned from its JSESSIONIDs; else null
 * @param routeSource {@code config} or {@code learned}; {@code null} without a route
 * @param source      {@code config}, {@code registry} or {@code discovery}
 * @param expiresInMs for a registered server, how long until it is removed without a report; else {@code null}
 * @param state       {@code up}, {@code drained}, {@code down} or {@code disabled}
 * @param adminState  what an operator decided: {@code enabled}, {@code drained} or {@code disabled}
 * @param stateless   served and in flight, less the stateful requests
 * @param lastCheck   the last health check's result in words (state, healthy and last check are the plain port's,
 *                    or the only port's of a server without a url)
 * @param https       the HTTPS port's own state, for a server with an {@code https_url} (else {@code null})
 * @param responseMs  the last minute's response times; {@code null} without answers in that minute
 * @param stateSince  since when {@code state} is what it is (ISO-8601)
 * @param operator    who set {@code admin_state}, when, and what the configuration says
 * @param answers     its answers by class and the bytes of their bodies
 * @param check       its health check's settings and failures
 * @param outcome     only in the answer to a registration: {@code registered}, {@code changed} or {@code renewed}
 * @param system      with {@code wdisp/system_<xx>}, the SID of the server's system; absent without entries
 * @param sapName     a discovered server's SAP instance name ({@code <host>_<SID>_<NN>}); absent for others
 * @param discoveredFrom a discovered server's source: the message server's URL; absent for others
 */
public record ServerView(String id, String type, String url, String httpsUrl, int capacity, Set<String> logonGroups,
                         List<String> groups, String route, String routeSource, String source, Long expiresInMs, String state, String adminState,
                         boolean healthy, Load load, int inFlight, long served, long stateful, long stateless,
                         long errors, String healthPath, String lastCheck, Https https, Connections connections, ResponseMs responseMs,
                         String stateSince, Operator operator, Answers answers, Check check,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String outcome,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String system,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String sapName,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String discoveredFrom) {
    /**
     * Who set the admin state and what holds it.
     *
     * @param by         {@code user from address}; {@code null}: the configuration ({@code server.<id>.state})
     * @param at         when (ISO-8601)
     * @param configured what {@code server.<id>.state} says ({@code active}, {@code drained}, {@code disabled})
     * @param kept       where the operator's decisions are kept ({@code file ...}, {@code cluster ...}, or until the
     *                   restart only)
     * @param problem    only in the answer to an action that could not be kept: why
     */
    public record Operator(String by, String at, String configured, String kept,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String problem) {
    }

    /**
     * Its requests' ends by who answered: the server's own 4xx and 5xx, jwd's 502, 503 and 504 for it; and the
     * bodies' bytes, in from the clients and out to them.
     */
    public record Answers(@JsonProperty("server_4xx") long server4xx, @JsonProperty("server_5xx") long server5xx,
                          @JsonProperty("jwd_502") long jwd502, @JsonProperty("jwd_503") long jwd503,
                          @JsonProperty("jwd_504") long jwd504, long bytesIn, long bytesOut) {
        static Answers of(org.jwd.topology.ServerTraffic.Counts c) {
            return new Answers(c.serverClientErrors(), c.serverServerErrors(), c.own502(), c.own503(), c.own504(),
                    c.bytesIn(), c.bytesOut());
        }
    }

    /**
     * Its health check: the settings in force (its own, else {@code health.*}) and its failures.
     *
     * @param url           what is requested: its url (or https_url) and {@code health_path}
     * @param failedChecks  active checks that failed, since the start (or since it registered)
     * @param lastFailure   the last failure, check or request, in words; {@code null} without one
     * @param lastFailureAt when (ISO-8601); {@code null} without one
     */
    public record Check(String url, String status, String interval, String timeout, int rise, int fall,
                        long failedChecks, String lastFailure, String lastFailureAt) {
    }

    /**
     * The server's weight in its own internal group ({@code !J2EE} or {@code !DIAG}).
     *
     * @param strategy {@code null} when the group has no balancer
     * @param measure  what {@code value} is: {@code load factor}, {@code share used} or {@code quality}
     * @param value    rounded to three decimals; {@code null} when the server is not in the balancer
     */
    public record Load(String group, String strategy, String measure, Double value) {
    }

    /** The HTTPS port's health, apart from the plain port's: a failing HTTPS port takes the server out of the S groups only. */
    public record Https(String state, boolean healthy, String lastCheck) {
        static Https of(Server s) {
            return s.config().httpsUrl() == null ? null
                    : new Https(s.state(true).name().toLowerCase(Locale.ROOT), s.healthy(true), s.lastCheck(true));
        }
    }

    /**
     * {@code server.<id>.max_connections} and its queue, with their counters.
     *
     * @param maxConnections {@code null}: no limit
     * @param maxQueue       {@code null}: no limit (or no limit on connections)
     */
    public record Connections(Integer maxConnections, Integer maxQueue, int active, int queued, long rejected,
                              long queueTimeouts) {
        static Connections of(ServerSlots slots) {
            return new Connections(slots.isLimited() ? slots.maxConnections() : null,
                    slots.isLimited() && slots.maxQueue() >= 0 ? slots.maxQueue() : null,
                    slots.active(), slots.queued(), slots.rejected(), slots.timedOut());
        }
    }

    /**
     * The last minute's p50 and p99 in milliseconds, to the server's first byte and to its last.
     *
     * @param answers how many answers the figures come from
     */
    public record ResponseMs(long answers, double firstByteP50, double firstByteP99, double lastByteP50,
                             double lastByteP99) {
        static ResponseMs of(ResponseTimes.Quantiles q) {
            return q == null ? null : new ResponseMs(q.count(), q.firstByteP50(), q.firstByteP99(), q.lastByteP50(),
                    q.lastByteP99());
        }
    }

    /** This view with the outcome of the registration that produced it. */
    ServerView registered(String outcome) {
        return with(operator, outcome);
    }

    /** This view in the answer to an action: with why the decision could not be kept, if it could not. */
    ServerView acted(String problem) {
        return with(new Operator(operator.by(), operator.at(), operator.configured(), operator.kept(), problem),
                outcome);
    }

    private ServerView with(Operator operator, String outcome) {
        return new ServerView(id, type, url, httpsUrl, capacity, logonGroups, groups, route, routeSource, source,
                expiresInMs, state, adminState, healthy, load, inFlight, served, stateful, stateless, errors,
                healthPath, lastCheck, https, connections, responseMs, stateSince, operator, answers, check, outcome,
                system, sapName, discoveredFrom);
    }
}
