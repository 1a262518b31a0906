package org.jwd.runtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerConfig;
import org.jwd.discovery.Discovery;
import org.jwd.discovery.DiscoveryConfig;
import org.jwd.discovery.InfoFetcher;
import org.jwd.discovery.SystemView;
import org.jwd.tls.TlsConfig;

/**
 * How the dispatcher holds its {@link Discovery}: made for a configuration's {@link DiscoveryConfig}, made anew when
 * a reload changes it, and what its views add to the configuration file's servers.
 */
final class DiscoveryLink {
    /** The key of the one implicit system's view. */
    static final String IMPLICIT = "-";

    private DiscoveryLink() {
    }

    /** The discovery of {@code config} (one with no source when it discovers nothing), not yet started. */
    static Discovery open(DispatcherConfig config, TlsConfig tls, Consumer<Discovery> publish) throws ConfigException {
        DiscoveryConfig discovery = of(config);
        InfoFetcher fetcher;
        try {
            fetcher = new InfoFetcher(tls, discovery.timeout());
        } catch (IOException e) {
            throw new ConfigException(e.getMessage());
        }
        return new Discovery(discovery, fetcher, System::currentTimeMillis, publish);
    }

    /** Whether {@code next} discovers differently from {@code running}. */
    static boolean changed(Discovery running, DispatcherConfig next) {
        return !running.config().equals(of(next));
    }

    private static DiscoveryConfig of(DispatcherConfig config) {
        return config.sections().find(DiscoveryConfig.class).orElse(DiscoveryConfig.NONE);
    }

    /**
     * Every server of the whole topology: the file's, then each view's that no server of its system's file stands
     * for ({@link Discovered#servers}). The views are {@link #placed}: no id comes twice.
     */
    static List<ServerConfig> servers(DispatcherConfig config, Map<String, SystemView> placed) {
        List<ServerConfig> file = SystemConfigs.serversOf(config);
        List<ServerConfig> all = new ArrayList<>(file);
        SystemConfigs systems = SystemConfigs.of(config);
        for (SystemView view : placed.values()) {
            List<ServerConfig> own = systems == null ? file : systems.configs().get(view.system()).servers();
            List<ServerConfig> with = Discovered.servers(own, view);
            all.addAll(with.subList(own.size(), with.size()));
        }
        return all;
    }

    /**
     * The views with each discovered server id in one system, as a server id names one server across the systems
     * (the health checks, the limits, the page know a server by its id): a discovered server is left out of its view
     * when another system's file has a server of its id, or an earlier system's list (in entry order) gave that id
     * already. Each one left out adds a sentence to {@code conflicts}, naming both systems and the instance. The
     * file's own blocks win over their system's discovered servers as before ({@link Discovered#servers}).
     */
    static Map<String, SystemView> placed(DispatcherConfig config, Map<String, SystemView> views,
                                          List<String> conflicts) {
        SystemConfigs systems = SystemConfigs.of(config);
        if (systems == null || views.size() < 2 && systems.configs().size() < 2) {
            return views;
        }
        Map<String, String> fileSystem = new HashMap<>();
        systems.configs().forEach((sid, c) -> c.servers().forEach(s -> fileSystem.putIfAbsent(s.id(), sid)));
        Map<String, Seen> discovered = new HashMap<>();
        Map<String, SystemView> placed = new LinkedHashMap<>();
        views.forEach((sid, view) -> {
            List<ServerConfig> kept = new ArrayList<>();
            for (ServerConfig s : view.servers()) {
                String conflict = conflict(sid, s, fileSystem.get(s.id()), discovered.get(s.id()));
                if (conflict == null) {
                    discovered.putIfAbsent(s.id(), new Seen(sid, s));
                    kept.add(s);
                } else {
                    conflicts.add(conflict);
                }
            }
            placed.put(sid, kept.size() == view.servers().size() ? view
                    : new SystemView(view.system(), kept, view.logonGroups(), view.abapPrefixes(), view.answers()));
        });
        return placed;
    }

    /** A discovered server, and the system whose list gave it. */
    private record Seen(String sid, ServerConfig server) {
    }

    /** Why system {@code sid}'s discovered server {@code s} has no place, or {@code null} when it has one. */
    private static String conflict(String sid, ServerConfig s, String fileSystem, Seen earlier) {
        String why = " (a server id names one server across the systems)";
        if (fileSystem != null && !fileSystem.equals(sid)) {
            return "instance " + s.name() + " of system " + sid + "'s server list has the id of system " + fileSystem
                    + "'s server " + s.id() + " of the configuration: left out of " + sid + why;
        }
        if (fileSystem == null && earlier != null && !earlier.sid().equals(sid)) {
            ServerConfig first = earlier.server();
            String instance = first.name().equals(s.name()) ? "instance " + s.name()
                    : "server id " + s.id() + " (instances " + first.name() + " and " + s.name() + ")";
            return instance + " is discovered by systems " + earlier.sid() + " and " + sid + ": system "
                    + earlier.sid() + "'s (" + address(first) + ") is used, system " + sid + "'s (" + address(s)
                    + ") left out" + why;
        }
        return null;
    }

    private static String address(ServerConfig s) {
        return String.valueOf(s.url() != null ? s.url() : s.httpsUrl());
    }
}
