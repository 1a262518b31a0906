package org.jwd.routing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which server group a request goes to, as SAP's Web Dispatcher does ("Determining the Server
 * Group"). Built for one configuration and topology (rebuild it when either is replaced); the URL mapping
 * table is read through a supplier on every call because it is reloaded on its own schedule.
 *
 * <ol>
 * <li><b>Type.</b> A root URL (one slash: {@code /}, {@code /index.html}) is typed by
 *     {@code is/HTTP/default_root_hdl} (rule {@code root}); otherwise a path covered by the URL mapping table
 *     is ABAP (rule {@code icf_prefix}, see {@link UrlMappingTable}); anything else is J2EE ({@code default}).</li>
 * <li><b>Logon group.</b> The longest {@code logon_group.<G>.url_prefixes} entry covering the path, across
 *     all groups, selects G, with the same segment-boundary rule as the URL mapping table ({@code /irj}
 *     covers {@code /irj} and {@code /irj/x}, not {@code /irjx}). The group is G's members of the request's
 *     type (with an {@code https_url} when {@code secure}). If none of them takes new requests: a J2EE request
 *     when no J2EE server is active goes to {@code !ALL} (below); otherwise with {@code fallback=true} continue
 *     with the internal group, else 503 naming G. A prefix given for two groups belongs to the first in
 *     configuration order (by name), with a WARN at construction.</li>
 * <li><b>Internal group.</b> {@code !DIAG} / {@code !DIAGS} for ABAP, {@code !J2EE} / {@code !J2EES} for J2EE
 *     ({@code S}: secure). When no J2EE server is active — none passes its health checks; a drained or disabled
 *     one still counts, so that draining never turns J2EE traffic into ABAP traffic — a J2EE request goes to
 *     {@code !ALL} (for a secure request, only its members with an {@code https_url}), stateless or stateful
 *     alike: a stateful one still goes to its session's server, which the router finds with the identifiers of
 *     both stacks ({@link Classification#sessionType()}).</li>
 * <li>A chosen group without an active member is a 503 naming it, never a random server; a request of a
 *     session still goes to the session's server (the router decides that before it answers 503).</li>
 * </ol>
 * A root URL is any path with a single slash, so {@code /irj}, {@code /sap} and {@code /A} are root URLs too
 * (SAP: "the prefix to check for is /"): they are typed by {@code default_root_hdl} even where the URL
 * mapping table has {@code /sap/}. Logon groups apply to root URLs as to any other: only the type comes
 * from {@code default_root_hdl}.
 */
public final class GroupResolver {
    private static final Logger LOG = LoggerFactory.getLogger(GroupResolver.class);
    private static final int UNAVAILABLE = 503;

    /** A logon group prefix, the group it selects, and that choice in words. */
    private record LogonRoute(UrlPrefix prefix, LogonGroupConfig group, String why) {
        LogonRoute(UrlPrefix prefix, LogonGroupConfig group) {
            this(prefix, group, "; logon group prefix " + prefix + " -> " + group.name());
        }
    }

    /**
     * The first step's outcome: the request's type, the rule that gave it, the ICF prefix that matched (or
     * {@code null}) and that choice in words, to follow "path /x" in the reason.
     */
    private record Typing(ServerType type, String rule, String matched, String why) {
    }

    private static final Typing J2EE_BY_DEFAULT = new Typing(ServerType.J2EE, Classification.DEFAULT, null,
            " matches no ICF prefix -> j2ee");

    private final ServerType rootHandler;
    private final Typing rootTyping;
    private final Topology topology;
    private final Supplier<UrlMappingTable> table;
    private final PrefixIndex<LogonRoute> logonRoutes;
    /** For toString: "/irj/ -> PORTAL, ...". */
    private final String routesText;
    private final ServerGroup diag;
    private final ServerGroup diags;
    private final ServerGroup j2ee;
    private final ServerGroup j2ees;
    private final ServerGroup all;
    /** !ALL for secure requests: only servers that can be reached over HTTPS. */
    private final ServerGroup allSecure;

    /**
     * @throws IllegalArgumentException when a {@code logon_group.<G>.url_prefixes} entry is not a valid prefix
     */
    public GroupResolver(DispatcherConfig config, Topology topology, Supplier<UrlMappingTable> table) {
        this.rootHandler = config.urlMapping().defaultRootHandler();
        this.rootTyping = new Typing(rootHandler, Classification.ROOT, null,
                " is a root URL -> " + rootHandler.key() + " (is/HTTP/default_root_hdl)");
        this.topology = topology;
        this.table = table;
        Map<UrlPrefix, LogonRoute> routes = new LinkedHashMap<>();
        for (LogonGroupConfig g : config.logonGroups()) {
            for (String text : g.urlPrefixes()) {
                UrlPrefix prefix = UrlPrefix.parse(text);
                LogonRoute earlier = routes.putIfAbsent(prefix, new LogonRoute(prefix, g));
                if (earlier != null && !earlier.group().name().equals(g.name())) {
                    LOG.warn("URL prefix {} is given for logon groups {} and {}; {} wins", prefix,
                            earlier.group().name(), g.name(), earlier.group().name());
                }
            }
        }
        this.logonRoutes = new PrefixIndex<>(routes);
        this.routesText = routes.values().stream().map(r -> r.prefix() + " -> " + r.group().name()).toList()
                .toString();
        this.diag = topology.internalGroup(ServerGroup.DIAG);
        this.diags = topology.internalGroup(ServerGroup.DIAGS);
        this.j2ee = topology.internalGroup(ServerGroup.J2EE);
        this.j2ees = topology.internalGroup(ServerGroup.J2EES);
        this.all = topology.internalGroup(ServerGroup.ALL);
        this.allSecure = topology.secureAll();
    }

    /**
     * @param secure the request is forwarded over HTTPS: only servers with an {@code https_url} qualify
     */
    public Classification classify(NormalizedPath normalized, boolean secure) {
        // The reason is assembled in one concatenation per outcome (pieces below), as it is built for every
        // request whether or not anyone reads it.
        String path = normalized.path();
        Typing typing = type(normalized);
        String logonWhy;
        LogonRoute route = logonRoutes.longestMatch(path);
        String logonGroup = route == null ? null : route.group().name();
        if (route != null) {
            ServerGroup group = topology.logonGroup(logonGroup, typing.type(), secure);
            if (group != null && group.hasActiveMember()) {
                return ok(path, typing, group, "path " + path + typing.why() + route.why(), logonGroup);
            }
            String problem = "logon group " + logonGroup + noActive(typing.type(), secure);
            if (!route.group().fallback() && (typing.type() != ServerType.J2EE || anyJ2eeActive())) {
                return error(path, typing, "path " + path + typing.why() + route.why() + ": " + problem, problem,
                        logonGroup);
            }
            logonWhy = route.why() + noActive(typing.type(), secure)
                    + (route.group().fallback() ? ", fallback=true" : "");
        } else {
            logonWhy = "; no logon group";
        }
        return internalGroup(path, typing, secure, "path " + path + typing.why() + logonWhy, logonGroup);
    }

    /**
     * The stack a path belongs to by its URL alone (a root URL by {@code is/HTTP/default_root_hdl}, else the URL
     * mapping table): for the URL filter's reading of the path as a server that decodes first reads it.
     */
    public ServerType typeOf(NormalizedPath normalized) {
        return type(normalized).type();
    }

    /** Step 1: root URL, ICF prefix or J2EE by default. */
    private Typing type(NormalizedPath normalized) {
        if (normalized.isRoot()) {
            return rootTyping;
        }
        UrlPrefix entry = table.get().match(normalized.path());
        if (entry == null) {
            return J2EE_BY_DEFAULT;
        }
        String matched = entry.toString();
        return new Typing(ServerType.ABAP, Classification.ICF_PREFIX, matched,
                " matches ICF prefix " + matched + " -> abap");
    }

    /** Step 3, for a request that no logon group took: its internal group, or !ALL when no J2EE server is active. */
    private Classification internalGroup(String path, Typing typing, boolean secure, String whyBefore,
                                         String logonGroup) {
        ServerType type = typing.type();
        ServerGroup internal = type == ServerType.ABAP ? (secure ? diags : diag) : (secure ? j2ees : j2ee);
        String why = whyBefore + " -> " + internal.name();
        if (internal.hasActiveMember()) {
            return ok(path, typing, internal, why, logonGroup);
        }
        if (type == ServerType.J2EE && !anyJ2eeActive()) {
            ServerGroup any = secure ? allSecure : all;
            String toAll = why + ", no j2ee server is active -> " + ServerGroup.ALL;
            if (any.hasActiveMember()) {
                return new Classification(path, type, typing.rule(), typing.matched(), any, toAll, 0, null, true,
                        logonGroup);
            }
            return new Classification(path, type, typing.rule(), typing.matched(), null, toAll, UNAVAILABLE,
                    "no j2ee server is active and group " + ServerGroup.ALL + " has no active server"
                            + (secure ? " with an https_url" : ""), true, logonGroup);
        }
        return error(path, typing, why, "group " + internal.name() + noActive(type, secure), logonGroup);
    }

    /**
     * SAP's "no J2EE server is active": none passes its health checks. Drained and disabled ones count as active,
     * so that draining the J2EE servers for maintenance never sends J2EE URLs to ABAP servers. Asked only when the
     * request's group has no member that takes new requests.
     */
    private boolean anyJ2eeActive() {
        for (Server s : topology.servers().values()) {
            boolean anyPortHealthy = s.hasPort(false) && s.healthy(false) || s.hasPort(true) && s.healthy(true);
            if (s.type() == ServerType.J2EE && anyPortHealthy) {
                return true;
            }
        }
        return false;
    }

    private static String noActive(ServerType type, boolean secure) {
        return " has no active " + type.key() + " server" + (secure ? " with an https_url" : "");
    }

    private static Classification ok(String path, Typing typing, ServerGroup group, String reason,
                                     String logonGroup) {
        return new Classification(path, typing.type(), typing.rule(), typing.matched(), group, reason, 0, null,
                false, logonGroup);
    }

    private static Classification error(String path, Typing typing, String reason, String message,
                                        String logonGroup) {
        return new Classification(path, typing.type(), typing.rule(), typing.matched(), null, reason, UNAVAILABLE,
                message, false, logonGroup);
    }

    @Override
    public String toString() {
        return "GroupResolver(root -> " + rootHandler.key() + ", logon group prefixes " + routesText + ", "
                + table.get() + ")";
    }
}
