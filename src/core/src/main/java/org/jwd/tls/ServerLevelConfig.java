package org.jwd.tls;

import org.jwd.config.ClusterConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.ConfigParser;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;
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
            KeyReader keys = ConfigLoader.read(ConfigLoader.locate());
            DispatcherConfig config = ConfigParser.read(keys);
            TlsConfig tls = TlsConfig.read(keys, config);
        ClusterConfig.read(keys, config);
            // Unknown keys are the webapp's to name: the sections of the other features are not on this class path.
            keys.check();
            return new ServerLevelConfig(config, tls);
        } catch (ConfigException e) {
            throw fail(e);
        }
    }

    /** Logs each problem as {@code jwd: configuration error: ...}; the exception's text is what bin/jwd recognizes. */
    public static IllegalStateException fail(ConfigException e) {
        for (String problem : e.problems()) {
            LOG.error("jwd: configuration error: {}", problem);
        }
        return new IllegalStateException("jwd: invalid configuration:" + System.lineSeparator() + e.getMessage());
    }
}
