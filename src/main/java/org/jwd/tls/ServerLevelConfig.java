package org.jwd.tls;

import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.DispatcherConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration as the server-level parts of jwd read it (HTTPS termination, the end-to-end TLS
 * listener): the same file as the dispatcher's ({@code jwd.config}), read by the same parser, with the same
 * words for each problem, so that bin/jwd repeats them whichever part found them first.
 */
public record ServerLevelConfig(DispatcherConfig config, TlsConfig tls) {
    private static final Logger LOG = LoggerFactory.getLogger(ServerLevelConfig.class);

    /** @throws IllegalStateException after each problem has been logged as {@code jwd: configuration error: ...} */
    public static ServerLevelConfig load() {
        try {
            DispatcherConfig config = ConfigLoader.load(ConfigLoader.locate());
            return new ServerLevelConfig(config, TlsConfig.from(config));
        } catch (ConfigException e) {
            throw fail(e);
        }
    }

    static IllegalStateException fail(ConfigException e) {
        for (String problem : e.problems()) {
            LOG.error("jwd: configuration error: {}", problem);
        }
        return new IllegalStateException("jwd: invalid configuration:" + System.lineSeparator() + e.getMessage());
    }
}
