package org.jwd.runtime;

import java.nio.file.Path;
import java.time.Duration;

import org.jwd.accesslog.AccessLogConfigs;
import org.jwd.config.AdminConfig;
import org.jwd.config.ClusterConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigLoader;
import org.jwd.config.ConfigParser;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.KeyReader;
import org.jwd.config.PerSystemConfigs;
import org.jwd.config.SapProfile;
import org.jwd.config.Sections;
import org.jwd.config.SessionTableDiskConfig;
import org.jwd.discovery.DiscoveryConfig;
import org.jwd.filter.PermissionTable;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.SlowClients;
import org.jwd.modification.ModificationHandlers;
import org.jwd.operator.OperatorConfig;
import org.jwd.tls.TlsConfig;

/**
 * Reads the whole configuration file at once: the core keys, then every feature's section from the same
 * {@link KeyReader}, so that all problems of the file are reported together and a key no section read is named as
 * unknown. The one place that knows every section; each section lives in, and is read by, its own package.
 */
public final class ConfigReader {
    /** How often the reloader checks the files: a duration; {@code 0} turns the watch off. */
    public static final String WATCH_KEY = "jwd.config_watch";
    static final Duration DEFAULT_WATCH_INTERVAL = Duration.ofSeconds(1);

    /**
     * The reloader's {@code jwd.config_watch}: how often the files are checked, {@link Duration#ZERO} when the watch
     * is off.
     */
    public record WatchSection(Duration interval) {
        static WatchSection read(KeyReader keys) {
            return new WatchSection(keys.duration(WATCH_KEY, DEFAULT_WATCH_INTERVAL, true, "how often the configuration"
                    + " file is checked for changes: " + Durations.EXPECTED + "; 0 turns the watch off"));
        }
    }

    /**
     * SAP's {@code is/HTTP/show_detailed_errors}: whether jwd's own error answers (500, 502, 503, 504) name the
     * server, the group and the cause ({@code TRUE}, SAP's default), or say their status alone ({@code FALSE}, as SAP
     * recommends where clients are not to learn the landscape; the access log and the page keep the details).
     */
    public record ErrorDetailSection(boolean detailed) {
        public static final String KEY = "is/HTTP/show_detailed_errors";

        static ErrorDetailSection read(KeyReader keys) {
            return new ErrorDetailSection(keys.bool(KEY, true));
        }
    }

    private ConfigReader() {
    }

    /** Reads and checks the file; relative paths in it are resolved against its directory. */
    public static DispatcherConfig load(Path file) throws ConfigException {
        return read(ConfigLoader.read(file));
    }

    /**
     * @param source    how messages name the file, e.g. its path
     * @param directory where relative file names in the configuration are resolved: the file's directory, so that a
     *                  configuration and the files it names move together
     */
    public static DispatcherConfig parse(String text, String source, Path directory) throws ConfigException {
        return read(KeyReader.parse(text, source, directory));
    }

    /** As {@link #parse(String, String, Path)}, relative file names resolved against the working directory. */
    public static DispatcherConfig parse(String text, String source) throws ConfigException {
        return parse(text, source, Path.of(""));
    }

    private static DispatcherConfig read(KeyReader keys) throws ConfigException {
        DispatcherConfig core = ConfigParser.read(keys);
        SystemConfigs systems = SystemConfigs.read(keys);
        // with wdisp/system_<xx>, every server is some system's: TLS checks them all
        DispatcherConfig whole = systems == null ? core : core.withServers(systems.servers());
        // and the one session table exists when any system keeps one: cluster mode and the disk tier need it
        DispatcherConfig table = systems == null ? core
                : core.withSections(new Sections.Builder().put(PerSystemConfigs.class, systems.perSystem())
                        .build(java.util.Set.of()));
        LimitsConfig limits = LimitsConfig.read(keys, core);
        ClusterConfig cluster = ClusterConfig.read(keys, table);
        Sections.Builder sections = new Sections.Builder()
                .put(LimitsConfig.class, limits)
                .put(SlowClients.class, SlowClients.read(keys))
                .put(TlsConfig.class, TlsConfig.read(keys, whole))
                .put(AdminConfig.class, AdminConfig.read(keys, core))
                .put(AccessLogConfigs.class, AccessLogConfigs.read(keys))
                .put(PermissionTable.class, PermissionTable.read(keys))
                .put(ModificationHandlers.class, ModificationHandlers.read(keys))
                .put(ClusterConfig.class, cluster)
                .put(OperatorConfig.class, OperatorConfig.read(keys, cluster))
                .put(SessionTableDiskConfig.class, SessionTableDiskConfig.read(keys, table))
                .put(WatchSection.class, WatchSection.read(keys))
                .put(ErrorDetailSection.class, ErrorDetailSection.read(keys))
                .put(DiscoveryConfig.class, DiscoveryConfig.read(keys, systems == null ? java.util.List.of()
                        : systems.systems().systems(), core.urlMapping().autoRefresh()));
        if (systems != null) {
            // each system shares the file's sections but its own TLS and server limits; the whole carries them all.
            // Read before the check, so that the systems' problems come with the file's others.
            systems = systems.withSections(keys, sections.build(keys.restartKeys()));
            sections.put(SystemConfigs.class, systems).put(LimitsConfig.class, systems.limits(limits))
                    .put(PerSystemConfigs.class, systems.perSystem());
        }
        // last: the lines of an SAP profile that no section read
        sections.put(SapProfile.class, SapProfile.read(keys));
        keys.checkEveryKeyRead();
        return core.withSections(sections.build(keys.restartKeys()));
    }
}
