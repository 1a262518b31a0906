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
        SystemEntry best = null;
        List<String> bestCriteria = null;
        int bestLength = -1;
        List<String> tied = new ArrayList<>();
        for (SystemEntry entry : systems.entries()) {
            List<String> criteria = new ArrayList<>(3);
            if (!entry.accessPoints().isEmpty()) {
                AccessPoint a = entry.accessPointMatching(localAddress, request.localPort());
                if (a == null) {
                    continue;
                }
                criteria.add("SRCSRV " + a);
            }
            if (!entry.virtualHosts().isEmpty()) {
                VirtualHost v = entry.virtualHostMatching(requested);
                if (v == null) {
                    continue;
                }
                criteria.add("SRCVHOST " + v);
            }
            UrlPrefix prefix = entry.longestPrefix(path);
            if (prefix == null) {
                continue;
            }
            if (!entry.urlPrefixes().isEmpty()) {
                criteria.add("SRCURL " + prefix);
            }
            int length = prefix.prefix().length();
            if (length > bestLength) {
                best = entry;
                bestCriteria = criteria;
                bestLength = length;
                tied.clear();
            } else if (length == bestLength) {
                if (!entry.sid().equals(best.sid())) {
                    tied.add(entry.sid());
                }
            }
        }
        if (best == null) {
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
        String why = "system " + best.sid() + ": " + and(bestCriteria) + " matched";
        if (!tied.isEmpty()) {
            why += " (first in entry order before " + String.join(", ", tied) + ", " + ConflictResolution.KEY
                    + "=1)";
        }
        return new Selection(systems.system(best.sid()), why);
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
