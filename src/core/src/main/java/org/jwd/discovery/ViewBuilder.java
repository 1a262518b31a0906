package org.jwd.discovery;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jwd.config.ServerConfig;
import org.jwd.config.ServerHealthCheck;
import org.jwd.config.ServerState;
import org.jwd.config.ServerType;

/**
 * Decides what a system's answers mean for jwd: its servers from the server list, their logon groups, the URL
 * mapping table. The parsers read; this decides, and says each choice SAP's pages leave open:
 * <ul>
 *   <li>an instance with a {@code DIAG} or {@code DIAGS} row has an ABAP server, of capacity {@code LB=} of its
 *       {@code DIAG} row (SAP: its dialog work processes), reached on its {@code HTTP} and {@code HTTPS} rows;</li>
 *   <li>an instance named {@code J2EE<cluster id>}, listing {@code J2EE}/{@code J2EES} rows, or without a
 *       {@code DIAG} row has a Java server, reached on its {@code J2EE}/{@code J2EES} rows, else on its
 *       {@code HTTP}/{@code HTTPS} rows (the instance's ICM), of capacity {@code LB=} of those rows, else 1;</li>
 *   <li>a dual-stack instance (both) is two servers of the same SAP name: the ABAP server's id is the name's, the
 *       Java server's the name's with {@code -j2ee};</li>
 *   <li>{@code wdisp/server_<xx>} sets an instance's capacities ({@code LBA}, {@code LBJ}) and drains it
 *       ({@code ACTIVE=0}).</li>
 * </ul>
 * A server id is the instance name with every character but letters, digits, '_' and '-' made '-'.
 */
final class ViewBuilder {
    static final String JAVA_SUFFIX = "-j2ee";

    private final DiscoveryConfig config;

    ViewBuilder(DiscoveryConfig config) {
        this.config = config;
    }

    /** A view and what was left out of it. */
    record Built(SystemView view, List<String> problems) {
    }

    /** @throws InfoFormatException when the server list is none, or names no instance that serves HTTP */
    Built build(String system, Answers answers) throws InfoFormatException {
        ServerList list = ServerListParser.parse(answers.serverList());
        List<String> problems = new ArrayList<>(list.problems());
        if (list.instances().isEmpty()) {
            throw new InfoFormatException("the server list names no instance" + (problems.isEmpty() ? ""
                    : " (" + String.join("; ", problems.subList(0, Math.min(3, problems.size()))) + ")"));
        }
        Icf icf = Icf.read(answers, problems);
        Map<String, ServerConfig> servers = new LinkedHashMap<>();
        for (ServerList.Instance instance : list.instances()) {
            servers(instance, icf, problems).forEach(s -> {
                if (servers.putIfAbsent(s.id(), s) != null) {
                    problems.add("instance " + instance.name() + ": server id " + s.id() + " is another instance's"
                            + " already: left out");
                }
            });
        }
        if (servers.isEmpty()) {
            throw new InfoFormatException("no instance of the server list has an HTTP or HTTPS row: "
                    + String.join("; ", problems.subList(0, Math.min(3, problems.size()))));
        }
        List<ServerConfig> all = List.copyOf(servers.values());
        return new Built(new SystemView(system, all, icf.groups(all, problems), icf.abapPrefixes(), answers),
                problems);
    }

    /** The instance's servers: none, one, or two for a dual-stack instance. */
    private List<ServerConfig> servers(ServerList.Instance instance, Icf icf, List<String> problems) {
        ServerOverride override = config.override(instance.name());
        boolean abap = instance.hasAbap();
        boolean java = instance.hasJava() || !abap;
        List<ServerConfig> servers = new ArrayList<>();
        ServerList.Row http = instance.row("HTTP");
        ServerList.Row https = instance.row("HTTPS");
        if (abap) {
            Integer lb = instance.row("DIAG") == null ? null : instance.row("DIAG").lb();
            add(servers, instance, ServerType.ABAP, http, https, capacity(override == null ? null : override.lba(), lb),
                    override, icf, problems);
        }
        if (java) {
            ServerList.Row j2ee = instance.row("J2EE") != null ? instance.row("J2EE") : http;
            ServerList.Row j2ees = instance.row("J2EES") != null ? instance.row("J2EES") : https;
            Integer lb = j2ee != null && j2ee.lb() != null ? j2ee.lb() : j2ees == null ? null : j2ees.lb();
            add(servers, instance, ServerType.J2EE, j2ee, j2ees, capacity(override == null ? null : override.lbj(), lb),
                    override, icf, problems);
        }
        return servers;
    }

    private static int capacity(Integer configured, Integer listed) {
        return configured != null ? configured : listed != null && listed > 0 ? listed : 1;
    }

    private void add(List<ServerConfig> servers, ServerList.Instance instance, ServerType type, ServerList.Row http,
                     ServerList.Row https, int capacity, ServerOverride override, Icf icf, List<String> problems) {
        String stack = type == ServerType.ABAP ? "ABAP" : "Java";
        if (http == null && https == null) {
            problems.add("instance " + instance.name() + " has no HTTP or HTTPS row for its " + stack
                    + " stack: it serves no HTTP, left out");
            return;
        }
        URI url;
        URI httpsUrl;
        try {
            url = http == null ? null : URI.create("http://" + hostPort(http));
            httpsUrl = https == null ? null : URI.create("https://" + hostPort(https));
        } catch (IllegalArgumentException e) {
            problems.add("instance " + instance.name() + ": host " + ServerListParser.quote(http == null
                    ? https.host() : http.host()) + " is no host name: left out");
            return;
        }
        String id = idOf(instance.name()) + (type == ServerType.J2EE && instance.hasAbap() ? JAVA_SUFFIX : "");
        Set<String> groups = new LinkedHashSet<>(icf.groupsOf(instance.name(), type));
        servers.add(new ServerConfig(id, url, httpsUrl, type, capacity, groups, id, instance.name(), null,
                type == ServerType.ABAP ? ServerConfig.ABAP_PING_PATH : "/", instance.name(),
                ServerHealthCheck.DEFAULTS, override != null && !override.active() ? ServerState.DRAINED
                : ServerState.ACTIVE));
    }

    private static String hostPort(ServerList.Row row) {
        String host = row.host().contains(":") && !row.host().startsWith("[") ? "[" + row.host() + "]" : row.host();
        URI uri = URI.create("http://" + host + ":" + row.port());
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host");
        }
        return host + ":" + row.port();
    }

    /** The server id of an instance: its name, every character but letters, digits, '_' and '-' made '-'. */
    static String idOf(String instance) {
        return instance.replaceAll("[^A-Za-z0-9_-]", "-");
    }
}
