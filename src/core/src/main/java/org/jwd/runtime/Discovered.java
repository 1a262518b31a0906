package org.jwd.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.discovery.SystemView;
import org.jwd.routing.UrlMappingTable;

/**
 * A system's configuration with what discovery found ({@link SystemView}): the configuration file's servers, then
 * the discovered ones a server of the file does not stand for (a {@code server.<id>} block wins for its id, and for
 * its SAP name on its stack, as SAP's {@code wdisp/server_<xx>} does), the file's logon groups, then the discovered
 * ones it does not define, and the URL mapping table with the discovered ABAP prefixes. The routers and the topology
 * are built from it as from a file: a discovered server is a server.
 */
final class Discovered {
    private Discovered() {
    }

    /** {@code file} with the discovered servers and logon groups of {@code view}; {@code file} itself without one. */
    static DispatcherConfig config(DispatcherConfig file, SystemView view) {
        if (view == null) {
            return file;
        }
        return file.withServers(servers(file.servers(), view)).withLogonGroups(groups(file.logonGroups(), view));
    }

    /** {@code file}, then the discovered servers that no server of {@code file} stands for. */
    static List<ServerConfig> servers(List<ServerConfig> file, SystemView view) {
        List<ServerConfig> all = new ArrayList<>(file);
        if (view == null) {
            return all;
        }
        Set<String> ids = file.stream().map(ServerConfig::id).collect(Collectors.toSet());
        Set<String> names = file.stream().map(s -> s.type() + " " + s.name()).collect(Collectors.toSet());
        for (ServerConfig s : view.servers()) {
            if (!ids.contains(s.id()) && !names.contains(s.type() + " " + s.name())) {
                all.add(s);
            }
        }
        return all;
    }

    private static List<LogonGroupConfig> groups(List<LogonGroupConfig> file, SystemView view) {
        List<LogonGroupConfig> all = new ArrayList<>(file);
        Set<String> names = file.stream().map(LogonGroupConfig::name).collect(Collectors.toSet());
        view.logonGroups().stream().filter(g -> !names.contains(g.name())).forEach(all::add);
        return all;
    }

    /**
     * The URL mapping table in force with the discovered ABAP prefixes: {@code base} itself without any. The merge
     * is made once per table {@code base} supplies (it changes when {@code icf.url_prefixes_url} refreshes), so a
     * request reads one more volatile field, no more.
     */
    static Supplier<UrlMappingTable> table(Supplier<UrlMappingTable> base, SystemView view) {
        if (view == null || view.abapPrefixes().isEmpty()) {
            return base;
        }
        UrlMappingTable discovered = UrlMappingTable.of(view.abapPrefixes());
        return new Merged(base, discovered);
    }

    /** The merge of the table in force with the discovered one, made again only when the table in force changes. */
    private static final class Merged implements Supplier<UrlMappingTable> {
        private record Pair(UrlMappingTable base, UrlMappingTable merged) {
        }

        private final Supplier<UrlMappingTable> base;
        private final UrlMappingTable discovered;
        private volatile Pair last = new Pair(null, null);

        Merged(Supplier<UrlMappingTable> base, UrlMappingTable discovered) {
            this.base = base;
            this.discovered = discovered;
        }

        @Override
        public UrlMappingTable get() {
            UrlMappingTable now = base.get();
            Pair p = last;
            if (p.base() != now) {
                p = new Pair(now, now.merge(discovered));
                last = p;
            }
            return p.merged();
        }
    }
}
