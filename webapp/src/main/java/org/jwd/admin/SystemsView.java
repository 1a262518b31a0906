package org.jwd.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jwd.runtime.DispatcherState;
import org.jwd.systems.Overlap;
import org.jwd.systems.SystemEntry;
import org.jwd.systems.Systems;
import org.jwd.tls.SslEncrypt;

/**
 * {@code GET api/systems}: the {@code wdisp/system_<xx>} systems, how a request is given to each, and what each
 * has. Without entries: no systems, {@code conflict_resolution} and {@code default_system} {@code null}.
 *
 * @param systems            each system once, in entry order (the order of its first entry)
 * @param conflictResolution {@code wdisp/system_conflict_resolution}: {@code 0} (overlaps are refused) or {@code 1}
 *                           (the first in entry order takes a request both meet); {@code null} without systems
 * @param defaultSystem      {@code jwd.default_system}: the SID of the system of requests no entry matches;
 *                           {@code null} when they get 404
 * @param overlaps           with {@code 1}, the pairs of entries that meet a request equally well, in words
 */
public record SystemsView(List<SystemView> systems, String conflictResolution, String defaultSystem,
                          List<String> overlaps) {
    /**
     * One system.
     *
     * @param byDefault       whether it is {@code jwd.default_system}
     * @param sslEncrypt      its {@code wdisp/system_<xx>}'s {@code SSL_ENCRYPT}, or the shared
     *                        {@code wdisp/ssl_encrypt} without one: how it forwards ({@code 0}, {@code 1}, {@code 2})
     * @param externalServers {@code EXTSRV}: a non-SAP web server's addresses; empty when its servers are jwd's keys
     * @param sticky          {@code STICKY} with {@code EXTSRV}; else {@code null}
     * @param entries         its entries in entry order: the first describes it, later ones add ways to reach it
     * @param servers         its servers' ids
     * @param groups          the groups its requests are balanced over (as {@code api/groups?system=SID} lists
     *                        them, each name once)
     */
    public record SystemView(String sid, boolean byDefault, String sslEncrypt, List<String> externalServers,
                             Boolean sticky, List<Entry> entries, List<String> servers, List<String> groups) {
    }

    /**
     * One {@code wdisp/system_<xx>} entry: a request matches it when it meets every criterion it gives; an empty
     * list is met by every request.
     *
     * @param key        {@code wdisp/system_<xx>}
     * @param srcsrv     {@code SRCSRV}: access points, {@code *:8080} or {@code 10.0.0.1:8443}
     * @param srcurl     {@code SRCURL}: URL prefixes ({@code case:} before one matched with its case)
     * @param srcvhost   {@code SRCVHOST}: virtual hosts, with a port when one is given
     * @param definition the entry as it would be written
     */
    public record Entry(String key, List<String> srcsrv, List<String> srcurl, List<String> srcvhost,
                        String definition) {
        static Entry of(SystemEntry e) {
            return new Entry(e.key(), texts(e.accessPoints()), texts(e.urlPrefixes()), texts(e.virtualHosts()),
                    e.toString());
        }
    }

    private static List<String> texts(List<?> items) {
        return items.stream().map(Objects::toString).toList();
    }

    /** The systems of {@code state}. */
    static SystemsView of(DispatcherState state) {
        if (!state.hasSystems()) {
            return new SystemsView(List.of(), null, null, List.of());
        }
        Systems systems = state.systems().configs().systems();
        List<SystemView> views = new ArrayList<>();
        for (SystemPart part : SystemPart.of(state)) {
            SystemEntry first = systems.system(part.sid());
            List<Entry> entries = systems.entries().stream().filter(e -> e.sid().equals(part.sid()))
                    .map(Entry::of).toList();
            List<String> groups = new ArrayList<>();
            for (GroupView g : GroupListing.groups(part, null)) {
                if (!groups.contains(g.name())) {
                    groups.add(g.name());
                }
            }
            views.add(new SystemView(part.sid(), systems.defaultSystem() != null
                    && systems.defaultSystem().sid().equals(part.sid()),
                    SslEncrypt.of(part.config()).value(), texts(first.externalServers()),
                    first.externalServers().isEmpty() ? null : first.sticky(), entries,
                    List.copyOf(part.topology().servers().keySet()), groups));
        }
        return new SystemsView(views, systems.conflictResolution().value(),
                systems.defaultSystem() == null ? null : systems.defaultSystem().sid(),
                systems.overlaps().stream().map(Overlap::toString).toList());
    }
}
