package org.jwd.admin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.jwd.config.Durations;
import org.jwd.config.LogonGroupConfig;
import org.jwd.routing.UrlMappingTable;
import org.jwd.routing.UrlPrefix;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.runtime.DispatcherState;

/**
 * {@code GET api/urlmapping}: what decides a URL's stack and group, per system: the URL mapping table (ICF prefixes:
 * ABAP) with where each prefix comes from, the URL it is loaded from and when, {@code is/HTTP/default_root_hdl},
 * and the logon groups with their URL prefixes.
 */
public record UrlMappingView(List<SystemMapping> systems) {
    /**
     * One system's mapping.
     *
     * @param system          its SID; {@code null} without {@code wdisp/system_<xx>}
     * @param url             {@code icf.url_prefixes_url}, or {@code null}
     * @param refresh         {@code wdisp/auto_refresh}, how often it is loaded again
     * @param loadedAt        when it last answered (ISO-8601); {@code null} before, or without a URL
     * @param lastError       why the last load failed; {@code null} after a success
     * @param rootHandler     {@code is/HTTP/default_root_hdl}: who serves {@code /}
     */
    public record SystemMapping(@JsonInclude(JsonInclude.Include.NON_NULL) String system, List<Prefix> icfPrefixes,
                                String url, String refresh, String loadedAt, String lastError, String rootHandler,
                                List<LogonGroup> logonGroups) {
    }

    /**
     * An ICF prefix.
     *
     * @param source {@code icf.url_prefixes} (the file) or the URL it was loaded from
     */
    public record Prefix(String prefix, boolean caseSensitive, String source) {
    }

    /** A logon group and the URL prefixes its requests come by. */
    public record LogonGroup(String name, String type, List<String> urlPrefixes) {
    }

    static UrlMappingView of(DispatcherState state) {
        List<SystemMapping> systems = new ArrayList<>();
        for (SystemPart part : SystemPart.of(state)) {
            UrlPrefixLoader loader = part.sid() == null ? state.urlPrefixes()
                    : state.systems().loaders().get(part.sid());
            systems.add(mapping(part, loader));
        }
        return new UrlMappingView(systems);
    }

    private static SystemMapping mapping(SystemPart part, UrlPrefixLoader loader) {
        UrlMappingTable table = loader.current().get();
        List<UrlPrefix> fromFile = loader.fileTable().entries();
        List<Prefix> prefixes = table.entries().stream().map(p -> new Prefix(p.prefix(), p.caseSensitive(),
                fromFile.contains(p) ? "icf.url_prefixes" : String.valueOf(loader.url()))).toList();
        List<LogonGroup> groups = part.config().logonGroups().stream().map(UrlMappingView::group).toList();
        long loaded = loader.loadedAtMillis();
        return new SystemMapping(part.sid(), prefixes, loader.url() == null ? null : loader.url().toString(),
                loader.url() == null ? null : Durations.format(loader.refresh()),
                loaded == 0 ? null : Instant.ofEpochMilli(loaded).toString(), loader.lastError(),
                part.config().urlMapping().defaultRootHandler().key(), groups);
    }

    private static LogonGroup group(LogonGroupConfig g) {
        return new LogonGroup(g.name(), String.valueOf(g.type()), g.urlPrefixes());
    }
}
