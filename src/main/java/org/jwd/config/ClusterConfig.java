package org.jwd.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cluster mode ({@code SessionTable.cluster_uri}): several dispatcher nodes share one session table, kept by a
 * Terracotta server (Ehcache's clustered tier). The key is read here rather than in {@link ConfigParser}, which
 * only accepts it: the feature that uses a key checks it.
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
     * Checks {@code SessionTable.cluster_uri} when it is set: {@link ConfigLoader} calls it, so that a bad value
     * stops the dispatcher at startup like any other configuration error.
     *
     * @param source how to name the file in messages
     * @throws ConfigException naming the key, the value and what is expected
     */
    public static void check(DispatcherConfig config, String source) throws ConfigException {
        String value = config.properties().get(KEY);
        if (value == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        if (parse(value.strip()) == null) {
            problems.add(source + ": " + KEY + " = '" + value + "': expected " + EXPECTED);
        }
        if (!config.sessionTableEnabled()) {
            problems.add(source + ": " + KEY + " = '" + value + "': expected a session table to share: "
                    + "wdisp/HTTP/esid_support, wdisp/HTTP/jsessionid_tab_support and SessionTableTimeout turn every "
                    + "table off");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /**
     * The cluster configuration, or {@code null} when {@code SessionTable.cluster_uri} is not set (each node has
     * its own table, as without cluster mode).
     *
     * @throws IllegalArgumentException when the value is not of the expected form (see {@link #check})
     */
    public static ClusterConfig of(DispatcherConfig config) {
        String value = config.properties().get(KEY);
        if (value == null) {
            return null;
        }
        ClusterConfig cluster = parse(value.strip());
        if (cluster == null) {
            throw new IllegalArgumentException(KEY + " = '" + value + "': expected " + EXPECTED);
        }
        return cluster;
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
