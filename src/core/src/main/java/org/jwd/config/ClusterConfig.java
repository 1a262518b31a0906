package org.jwd.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cluster mode ({@code SessionTable.cluster_uri}): several dispatcher nodes share one session table, kept by a
 * Terracotta server (Ehcache's clustered tier).
 *
 * @param uri     {@code terracotta://host:port/<entity>} as written, normalized
 * @param servers {@code host:port} of each Terracotta server of the stripe (one; or an active and its passives)
 * @param entity  the name of the cluster tier manager on the server: nodes with the same entity share a table
 */
public record ClusterConfig(URI uri, List<String> servers, String entity) {
    public static final String KEY = "SessionTable.cluster_uri";
    public static final String EXPECTED = "terracotta://host:port/<entity> (host1:port1,host2:port2 for a stripe "
            + "with passive servers; the entity: letters, digits, '.', '_' or '-')";

    private static final Pattern FORM = Pattern.compile("terracotta://([^/?#]+)/([A-Za-z0-9._-]+)");
    private static final Pattern SERVER = Pattern.compile("([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+]):([0-9]{1,5})");

    public ClusterConfig {
        servers = List.copyOf(servers);
    }

    /**
     * Reads {@code SessionTable.cluster_uri} (restart-only: the session table is built once), or {@code null} when it
     * is not set: each node has its own table, as without cluster mode.
     *
     * @param core the core configuration: cluster mode needs a session table to share
     */
    public static ClusterConfig read(KeyReader keys, DispatcherConfig core) {
        KeyReader restart = keys.restartOnly();
        ClusterConfig cluster = restart.value(KEY, null, EXPECTED, text -> parse(text.strip()));
        if (restart.raw(KEY) != null && !core.sessionTableEnabled()) {
            keys.problem(KEY, "a session table to share: wdisp/HTTP/esid_support, wdisp/HTTP/jsessionid_tab_support "
                    + "and SessionTableTimeout turn every table off");
        }
        return cluster;
    }

    /** The cluster configuration of {@code config}, or {@code null} when it has none. */
    public static ClusterConfig of(DispatcherConfig config) {
        return config.sections().find(ClusterConfig.class).orElse(null);
    }

    /** @return the configuration, or {@code null} when {@code text} is not of the expected form */
    static ClusterConfig parse(String text) {
        Matcher form = FORM.matcher(text);
        if (!form.matches()) {
            return null;
        }
        List<String> servers = new ArrayList<>();
        for (String server : form.group(1).split(",", -1)) {
            Matcher m = SERVER.matcher(server);
            if (!m.matches()) {
                return null;
            }
            int port = Integer.parseInt(m.group(2));
            if (port < 1 || port > 65_535) {
                return null;
            }
            servers.add(server);
        }
        return new ClusterConfig(URI.create(text), servers, form.group(2));
    }

    @Override
    public String toString() {
        return uri.toString();
    }
}
