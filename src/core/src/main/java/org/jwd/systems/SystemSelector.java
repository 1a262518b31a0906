package org.jwd.systems;

import java.util.ArrayList;
import java.util.List;

import org.jwd.routing.UrlPrefix;

/**
 * Chooses a request's system, the first step of its way after the admin paths and the URL filter. Pure: the same
 * request and systems give the same answer, and nothing changes.
 *
 * <p>A request matches an entry when it meets each criterion the entry gives ({@link SystemEntry}). Of the entries
 * it matches, the one whose {@code SRCURL} prefix covering the path is longest takes it (an entry without
 * {@code SRCURL} counts as the prefix {@code /}): with ERP at {@code SRCURL=/sap/} and GW at
 * {@code SRCURL=/sap/opu/odata/}, {@code /sap/opu/odata/x} goes to GW and {@code /sap/bc/x} to ERP. Entries that
 * tie are an {@link Overlap}: refused at start with {@code wdisp/system_conflict_resolution=0}, and with {@code 1}
 * the first in entry order takes the request. A request no entry matches goes to {@code jwd.default_system}, or
 * gets none: 404.
 *
 * <p>Each request costs one scan of the entries and their items; the number of systems is small (SAP's default
 * limit is 64).
 */
public final class SystemSelector {
    private final Systems systems;
    /** Whether some entry reads the local address or the Host header: if not, neither is parsed per request. */
    private final boolean readsAddress;
    private final boolean readsHost;

    public SystemSelector(Systems systems) {
        this.systems = systems;
        this.readsAddress = systems.entries().stream()
                .anyMatch(e -> e.accessPoints().stream().anyMatch(a -> !a.host().equals(AccessPoint.ANY_HOST)));
        this.readsHost = systems.entries().stream().anyMatch(e -> !e.virtualHosts().isEmpty());
    }

    public Selection select(SelectionRequest request) {
        if (systems.isImplicit()) {
            return new Selection(SystemEntry.implicit(), "the only system: no " + SystemEntry.KEY_PREFIX
                    + "<xx> is configured");
        }
        String localAddress = readsAddress ? AccessPoint.normalAddress(request.localAddress()) : null;
        VirtualHost requested = readsHost && request.host() != null
                ? VirtualHost.parse(request.host(), request.secure() ? 443 : 80) : null;
        String path = request.path().path();
        Match best = null;
        List<String> tied = new ArrayList<>();
        for (SystemEntry entry : systems.entries()) {
            Match match = match(entry, localAddress, request.localPort(), requested, path);
            if (match == null) {
                continue;
            }
            if (best == null || match.prefixLength() > best.prefixLength()) {
                best = match;
                tied.clear();
            } else if (match.prefixLength() == best.prefixLength() && !entry.sid().equals(best.entry().sid())) {
                tied.add(entry.sid());
            }
        }
        if (best == null) {
            return noEntryMatched(request, path);
        }
        String why = "system " + best.entry().sid() + ": " + and(best.criteria()) + " matched";
        if (!tied.isEmpty()) {
            why += " (first in entry order before " + String.join(", ", tied) + ", " + ConflictResolution.KEY
                    + "=1)";
        }
        return new Selection(systems.system(best.entry().sid()), why);
    }

    /**
     * The system a request names itself, through SAP's modification handler ({@code x-sap-webdisp-target-sid}, set by
     * a rule or by a trusted proxy): it takes the request whatever the entries' criteria say.
     *
     * @param sid    the SID as named (any case)
     * @param source what named it, for the explanation
     * @return that system, or none (404) naming the SID and the systems there are
     */
    public Selection selectNamed(String sid, String source) {
        SystemEntry named = systems.isImplicit() ? null : systems.system(sid.toUpperCase(java.util.Locale.ROOT));
        if (named == null) {
            return new Selection(null, "no system " + Selection.quote(sid) + ", which " + source + " names: expected"
                    + " the SID of a " + SystemEntry.KEY_PREFIX + "<xx> entry"
                    + Systems.sids(systems.isImplicit() ? List.of() : systems.entries()));
        }
        return new Selection(named, "system " + named.sid() + ": named by " + source);
    }

    /** An entry the request meets: the criteria it met, for the reason, and its SRCURL prefix's length, to rank. */
    private record Match(SystemEntry entry, List<String> criteria, int prefixLength) {
    }

    /** How the request meets each criterion the entry gives, or {@code null} when it misses one. */
    private static Match match(SystemEntry entry, String localAddress, int localPort, VirtualHost requested,
                               String path) {
        List<String> criteria = new ArrayList<>(3);
        if (!entry.accessPoints().isEmpty()) {
            AccessPoint a = entry.accessPointMatching(localAddress, localPort);
            if (a == null) {
                return null;
            }
            criteria.add("SRCSRV " + a);
        }
        if (!entry.virtualHosts().isEmpty()) {
            VirtualHost v = entry.virtualHostMatching(requested);
            if (v == null) {
                return null;
            }
            criteria.add("SRCVHOST " + v);
        }
        UrlPrefix prefix = entry.longestPrefix(path);
        if (prefix == null) {
            return null;
        }
        if (!entry.urlPrefixes().isEmpty()) {
            criteria.add("SRCURL " + prefix);
        }
        return new Match(entry, criteria, prefix.prefix().length());
    }

    /** The default system, or none (404), each with what the request was. */
    private Selection noEntryMatched(SelectionRequest request, String path) {
        String what = "host " + Selection.quote(request.host()) + ", port " + request.localPort() + ", path "
                + Selection.quote(path);
        SystemEntry fallback = systems.defaultSystem();
        if (fallback == null) {
            return new Selection(null, "no system for " + what + ": no " + SystemEntry.KEY_PREFIX
                    + "<xx> matched and no " + Systems.DEFAULT_SYSTEM + " is configured");
        }
        return new Selection(fallback, "system " + fallback.sid() + ": no " + SystemEntry.KEY_PREFIX
                + "<xx> matched " + what + ", " + Systems.DEFAULT_SYSTEM + "=" + fallback.sid());
    }

    /** {@code a}, {@code a and b}, {@code a, b and c}. */
    private static String and(List<String> items) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    @Override
    public String toString() {
        return "SystemSelector[" + systems + "]";
    }
}
