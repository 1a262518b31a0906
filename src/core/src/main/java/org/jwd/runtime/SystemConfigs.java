package org.jwd.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jwd.config.ConfigParser;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;
import org.jwd.config.PerSystemConfigs;
import org.jwd.config.Sections;
import org.jwd.config.ServerConfig;
import org.jwd.limits.LimitsConfig;
import org.jwd.systems.SystemEntry;
import org.jwd.systems.SystemProperties;
import org.jwd.systems.SystemScope;
import org.jwd.systems.Systems;
import org.jwd.tls.TlsConfig;

/**
 * The {@code wdisp/system_<xx>} systems of a configuration, each with its own configuration in today's form
 * ({@link SystemScope#of}): its servers, logon groups, ICF prefixes, session keys, {@code SSL_ENCRYPT} and server
 * limits. A section of the whole
 * configuration only when entries are given: without them there is the one implicit system, read as today.
 *
 * <p>A server id names one server across the systems (the health checks, the registry, the limits and the metrics
 * know a server by its id): an id that two systems describe differently is refused, naming both.
 *
 * @param configs each system's configuration by SID, in entry order
 */
public record SystemConfigs(Systems systems, Map<String, DispatcherConfig> configs) {
    public SystemConfigs {
        configs = Collections.unmodifiableMap(new LinkedHashMap<>(configs));
    }

    /**
     * Reads the systems and each one's core configuration (its servers, groups, prefixes, session keys), marking
     * every systems key read; {@link #withSections} adds the feature sections. Every problem goes to {@code keys},
     * located at its line in the file, to be reported with the file's other problems.
     *
     * @return the systems, or {@code null} when the file gives no {@code wdisp/system_<xx>} or its systems' keys
     *         have problems (reported)
     */
    static SystemConfigs read(KeyReader keys) {
        KeyReader restart = keys.restartOnly();
        for (String key : keys.values().keySet()) {
            if (SystemScope.isSystemsKey(key)) {
                // a system's session table switches and timeouts go the way the unscoped ones go on a reload: live
                // when the running table can take them, else at a restart (see Reloader)
                String unscoped = SystemScope.unscoped(key);
                (unscoped != null && Reloader.LIVE_TABLE_KEYS.contains(unscoped) ? restart : keys).raw(key);
            }
        }
        Systems systems = Systems.read(keys);
        if (systems == null || systems.isImplicit()) {
            return null;
        }
        Map<String, DispatcherConfig> configs = new LinkedHashMap<>();
        eachSystem(keys, systems, (system, reader) -> configs.put(system.sid(), ConfigParser.read(reader)));
        checkServerIds(systems, configs, keys);
        return new SystemConfigs(systems, configs);
    }

    /**
     * Each system's configuration with the file's feature sections, but its own TLS ({@code SSL_ENCRYPT}, checked
     * against its servers) and its servers' limits; problems go to {@code keys}, as in {@link #read}.
     */
    SystemConfigs withSections(KeyReader keys, Sections shared) {
        Map<String, DispatcherConfig> next = new LinkedHashMap<>();
        eachSystem(keys, systems, (system, reader) -> {
            DispatcherConfig config = config(system);
            Map<Class<?>, Object> own = new LinkedHashMap<>(shared.byType());
            own.put(TlsConfig.class, TlsConfig.read(reader, config));
            own.put(LimitsConfig.class, LimitsConfig.read(reader, config));
            next.put(system.sid(), config.withSections(new Sections(own, shared.restartKeys())));
        });
        return new SystemConfigs(systems, next);
    }

    /** Each system's configuration, as the section of the whole that the shared session table reads. */
    PerSystemConfigs perSystem() {
        return new PerSystemConfigs(configs);
    }

    /** {@code shared} with every system's server limits: a server id names one server across the systems. */
    LimitsConfig limits(LimitsConfig shared) {
        Map<String, LimitsConfig.ServerLimit> servers = new TreeMap<>(shared.servers());
        configs.values().forEach(c -> servers.putAll(c.section(LimitsConfig.class).servers()));
        return new LimitsConfig(shared.maxHeaderSize(), shared.maxRequestBytes(), shared.queueTimeout(), servers);
    }

    /** What reads one system's keys, with the reader of its keys in today's form. */
    @FunctionalInterface
    private interface SystemRead {
        void read(SystemEntry system, KeyReader reader);
    }

    /**
     * Runs {@code read} for each system and hands its problems to {@code keys}: each located at the line of the key
     * as the operator wrote it, and named so ({@code system.ERP.server.a.url}, not the unscoped {@code server.a.url}
     * the parser saw), after the system.
     */
    private static void eachSystem(KeyReader keys, Systems systems, SystemRead read) {
        for (SystemEntry system : systems.systems()) {
            SystemProperties scoped = SystemScope.of(keys.values(), system);
            KeyReader reader = KeyReader.of(scoped.properties(), keys.directory());
            read.read(system, reader);
            reader.reportTo(keys, scoped::origin, problem -> named(problem, scoped));
        }
    }

    /**
     * A problem of a system's configuration as the operator can find it: the system, and the key as written
     * ({@code system.ERP.server.a.url}, not the unscoped {@code server.a.url} the parser saw).
     */
    private static String named(String problem, SystemProperties scoped) {
        String named = problem;
        for (Map.Entry<String, String> origin : scoped.origins().entrySet()) {
            named = named.replace(origin.getKey() + " ", origin.getValue() + " ");
        }
        return "system " + scoped.system().sid() + ": " + named;
    }

    /**
     * Refuses a server id that two systems describe differently, located at the later system's first key of that
     * server (or its entry, for an {@code EXTSRV} server).
     */
    private static void checkServerIds(Systems systems, Map<String, DispatcherConfig> configs, KeyReader keys) {
        Map<String, String> firstSystem = new LinkedHashMap<>();
        Map<String, ServerConfig> first = new LinkedHashMap<>();
        configs.forEach((sid, config) -> {
            for (ServerConfig server : config.servers()) {
                ServerConfig seen = first.putIfAbsent(server.id(), server);
                firstSystem.putIfAbsent(server.id(), sid);
                if (seen != null && !seen.equals(server)) {
                    String block = SystemScope.PREFIX + sid + ".server." + server.id() + ".";
                    String key = new TreeMap<>(keys.values()).keySet().stream().filter(k -> k.startsWith(block))
                            .findFirst().orElse(systems.system(sid).key());
                    keys.problemText(key, "server " + server.id() + ": systems " + firstSystem.get(server.id())
                            + " and " + sid + " describe it differently; a server id names one server across the"
                            + " systems (give each system's server its own id)");
                }
            }
        });
    }

    /**
     * The servers of the file: with systems, every server is some system's (unscoped {@code server.<id>} keys are
     * refused then).
     */
    static List<ServerConfig> serversOf(DispatcherConfig config) {
        SystemConfigs systems = of(config);
        return systems == null ? config.servers() : systems.servers();
    }

    /** The {@code wdisp/system_<xx>} systems of {@code config}, or {@code null} for the implicit one. */
    static SystemConfigs of(DispatcherConfig config) {
        return config.sections().find(SystemConfigs.class).orElse(null);
    }

    /** Every system's servers, each id once, in entry order. */
    List<ServerConfig> servers() {
        Map<String, ServerConfig> servers = new LinkedHashMap<>();
        configs.values().forEach(c -> c.servers().forEach(s -> servers.putIfAbsent(s.id(), s)));
        return List.copyOf(servers.values());
    }

    /** The system's configuration, for {@code system} one of {@link #systems()}. */
    DispatcherConfig config(SystemEntry system) {
        return configs.get(system.sid());
    }

    /**
     * Why a registration into {@code system} cannot stand with {@code systems}: a SID that is not one of them, none
     * where there are systems, or one where there are none; {@code null} when it stands.
     */
    static String refusedRegistration(SystemConfigs systems, String system) {
        if (systems == null) {
            return system == null ? null : "system " + system + " is not configured: no wdisp/system_<xx> entry";
        }
        if (system == null) {
            return "no system: with wdisp/system_<xx> entries every server belongs to one of "
                    + String.join(", ", systems.configs().keySet());
        }
        return systems.configs().containsKey(system) ? null
                : "system " + system + " is not configured: expected one of " + String.join(", ",
                systems.configs().keySet());
    }
}
