package org.jwd.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;

/**
 * The servers and the groups computed from them, immutable: when the set of servers changes, a new
 * topology is built and swapped in whole. Server state (up, drained, counters) lives in {@link Server}.
 *
 * <p>Every group exists twice, plain and secure (SAP: {@code !DIAGS} and {@code !J2EES} are the servers with an
 * HTTPS port configured). A plain group holds the servers with a {@code url}, a secure one those with an
 * {@code https_url}: a server with only an {@code https_url} is in the secure groups alone.
 */
public final class Topology {
    private final Map<String, Server> servers;
    private final Map<String, ServerGroup> internalGroups;
    /** !ALL for requests forwarded over HTTPS: only the servers with an https_url. */
    private final ServerGroup secureAll;
    /** logon group name -> (type -> group restricted to that type) */
    private final Map<String, Map<ServerType, ServerGroup>> logonGroups;
    private final Map<String, Map<ServerType, ServerGroup>> secureLogonGroups;

    private Topology(Map<String, Server> servers, List<LogonGroupConfig> logonGroupConfigs) {
        this.servers = Collections.unmodifiableMap(servers);
        List<Server> all = List.copyOf(servers.values());
        Map<String, ServerGroup> internal = new LinkedHashMap<>();
        internal.put(ServerGroup.DIAG, group(ServerGroup.DIAG, ServerType.ABAP, all, null, false));
        internal.put(ServerGroup.DIAGS, group(ServerGroup.DIAGS, ServerType.ABAP, all, null, true));
        internal.put(ServerGroup.J2EE, group(ServerGroup.J2EE, ServerType.J2EE, all, null, false));
        internal.put(ServerGroup.J2EES, group(ServerGroup.J2EES, ServerType.J2EE, all, null, true));
        internal.put(ServerGroup.ALL, group(ServerGroup.ALL, null, all, null, false));
        this.internalGroups = Collections.unmodifiableMap(internal);
        this.secureAll = group(ServerGroup.ALL, null, all, null, true);
        Map<String, Map<ServerType, ServerGroup>> plain = new LinkedHashMap<>();
        Map<String, Map<ServerType, ServerGroup>> secure = new LinkedHashMap<>();
        for (LogonGroupConfig lg : logonGroupConfigs) {
            List<Server> members = all.stream().filter(s -> lg.includes(s.config())).toList();
            Map<ServerType, ServerGroup> byType = new LinkedHashMap<>();
            Map<ServerType, ServerGroup> secureByType = new LinkedHashMap<>();
            for (ServerType type : ServerType.values()) {
                byType.put(type, group(lg.name(), type, members, lg, false));
                secureByType.put(type, group(lg.name(), type, members, lg, true));
            }
            plain.put(lg.name(), Collections.unmodifiableMap(byType));
            secure.put(lg.name(), Collections.unmodifiableMap(secureByType));
        }
        this.logonGroups = Collections.unmodifiableMap(plain);
        this.secureLogonGroups = Collections.unmodifiableMap(secure);
    }

    public static Topology of(DispatcherConfig config) {
        Map<String, Server> servers = new LinkedHashMap<>();
        for (ServerConfig sc : config.servers()) {
            servers.put(sc.id(), new Server(sc));
        }
        return new Topology(servers, config.logonGroups());
    }

    /**
     * A topology of these servers, taken as they are (their state and counters carry over), in this order: how a
     * changed set of servers is swapped in while the servers that stay keep counting.
     */
    public static Topology of(Collection<Server> servers, List<LogonGroupConfig> logonGroups) {
        Map<String, Server> byId = new LinkedHashMap<>();
        for (Server s : servers) {
            byId.put(s.id(), s);
        }
        return new Topology(byId, logonGroups);
    }

    /** The candidates of this type ({@code null}: any) that have the port the group's requests use. */
    private static ServerGroup group(String name, ServerType type, List<Server> candidates,
                                     LogonGroupConfig logonGroup, boolean secure) {
        Predicate<Server> fits = s -> (type == null || s.type() == type) && s.hasPort(secure);
        List<Server> members = new ArrayList<>();
        for (Server s : candidates) {
            if (fits.test(s)) {
                members.add(s);
            }
        }
        return new ServerGroup(name, type, members, logonGroup, secure);
    }

    public Map<String, Server> servers() {
        return servers;
    }

    /** The server with this id, or {@code null}. */
    public Server server(String id) {
        return servers.get(id);
    }

    /** {@code !DIAG}, {@code !DIAGS}, {@code !J2EE}, {@code !J2EES}, {@code !ALL} (the plain one: servers with a url). */
    public ServerGroup internalGroup(String name) {
        return internalGroups.get(name);
    }

    /** {@code !ALL} for requests forwarded over HTTPS: the HTTPS-enabled servers, by their HTTPS port's health. */
    public ServerGroup secureAll() {
        return secureAll;
    }

    public Map<String, ServerGroup> internalGroups() {
        return internalGroups;
    }

    /** The members of logon group {@code name} of this type: with a url, or HTTPS-enabled ones when {@code secure}. */
    public ServerGroup logonGroup(String name, ServerType type, boolean secure) {
        Map<ServerType, ServerGroup> byType = (secure ? secureLogonGroups : logonGroups).get(name);
        return byType == null ? null : byType.get(type);
    }

    /** Every group a request can be routed to, internal and logon, plain and secure. */
    public List<ServerGroup> allGroups() {
        List<ServerGroup> all = new ArrayList<>(internalGroups.values());
        all.add(secureAll);
        logonGroups.values().forEach(m -> all.addAll(m.values()));
        secureLogonGroups.values().forEach(m -> all.addAll(m.values()));
        return all;
    }

    @Override
    public String toString() {
        return "Topology" + servers.keySet() + " logon groups " + logonGroups.keySet();
    }
}
