package org.jwd.runtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
     * Every server of the whole topology: the file's ({@code file}), then each view's that no server of the file
     * stands for ({@link Discovered#servers}); an id may come twice, the first wins.
     */
    static List<ServerConfig> servers(List<ServerConfig> file, Collection<SystemView> views) {
        List<ServerConfig> all = new ArrayList<>(file);
        for (SystemView view : views) {
            List<ServerConfig> with = Discovered.servers(file, view);
            all.addAll(with.subList(file.size(), with.size()));
        }
        return all;
    }
}
