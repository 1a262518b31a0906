package org.jwd.systems;

import java.util.List;

import org.jwd.routing.UrlPrefix;

/**
 * Two entries that meet one request equally well: it arrives on an access point of both (or of one, the other
 * giving no {@code SRCSRV}), addresses a virtual host of both (likewise), and the longest {@code SRCURL} prefix
 * covering its path is the same prefix in both. Nested prefixes ({@code /sap/} and {@code /sap/opu/odata/}) are no
 * overlap: the longer one takes its paths, as for ICF prefixes and logon groups. With
 * {@code wdisp/system_conflict_resolution=0} an overlap is a configuration error; with {@code 1} the first entry
 * takes such requests, and the overlap is worth a warning.
 *
 * <p>This is exact: entries without an overlap never tie on a request, so selection needs no check at request
 * time. Two different prefixes never tie, because two prefixes that cover one path and have the same length are
 * the same characters up to case.
 *
 * @param first       the entry first in entry order
 * @param second      the other one
 * @param accessPoint the access point both take, {@code null} when neither gives {@code SRCSRV}
 * @param virtualHost the virtual host both take, {@code null} when neither gives {@code SRCVHOST}
 * @param urlPrefix   the prefix both rank first, {@code null} when neither gives {@code SRCURL}
 */
public record Overlap(SystemEntry first, SystemEntry second, AccessPoint accessPoint, VirtualHost virtualHost,
                      UrlPrefix urlPrefix) {

    /** The overlap of two entries ({@code a} first in entry order), or {@code null} when no request meets both. */
    static Overlap between(SystemEntry a, SystemEntry b) {
        AccessPoint accessPoint = null;
        if (!a.accessPoints().isEmpty() || !b.accessPoints().isEmpty()) {
            accessPoint = commonAccessPoint(a.accessPoints(), b.accessPoints());
            if (accessPoint == null) {
                return null;
            }
        }
        VirtualHost virtualHost = null;
        if (!a.virtualHosts().isEmpty() || !b.virtualHosts().isEmpty()) {
            virtualHost = commonVirtualHost(a.virtualHosts(), b.virtualHosts());
            if (virtualHost == null) {
                return null;
            }
        }
        UrlPrefix urlPrefix = null;
        if (!a.urlPrefixes().isEmpty() || !b.urlPrefixes().isEmpty()) {
            urlPrefix = commonPrefix(orRoot(a.urlPrefixes()), orRoot(b.urlPrefixes()));
            if (urlPrefix == null) {
                return null;
            }
        }
        return new Overlap(a, b, accessPoint, virtualHost, urlPrefix);
    }

    private static AccessPoint commonAccessPoint(List<AccessPoint> a, List<AccessPoint> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() ? b.get(0) : a.get(0);
        }
        for (AccessPoint x : a) {
            for (AccessPoint y : b) {
                if (x.overlaps(y)) {
                    return x.narrower(y);
                }
            }
        }
        return null;
    }

    private static VirtualHost commonVirtualHost(List<VirtualHost> a, List<VirtualHost> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() ? b.get(0) : a.get(0);
        }
        for (VirtualHost x : a) {
            for (VirtualHost y : b) {
                if (x.overlaps(y)) {
                    return x.narrower(y);
                }
            }
        }
        return null;
    }

    private static List<UrlPrefix> orRoot(List<UrlPrefix> prefixes) {
        return prefixes.isEmpty() ? List.of(SystemEntry.ROOT) : prefixes;
    }

    private static UrlPrefix commonPrefix(List<UrlPrefix> a, List<UrlPrefix> b) {
        for (UrlPrefix x : a) {
            for (UrlPrefix y : b) {
                if (SystemEntry.samePrefix(x, y)) {
                    return x;
                }
            }
        }
        return null;
    }

    /** The request both meet: {@code SRCSRV *:8080, any SRCVHOST, SRCURL /sap/}. */
    public String criterion() {
        return (accessPoint == null ? "any SRCSRV" : "SRCSRV " + accessPoint)
                + ", " + (virtualHost == null ? "any SRCVHOST" : "SRCVHOST " + virtualHost)
                + ", " + (urlPrefix == null ? "any SRCURL" : "SRCURL " + urlPrefix);
    }

    /** The configuration error (or, with conflict resolution 1, the warning) naming both entries. */
    @Override
    public String toString() {
        return first.key() + " (" + first.sid() + ") and " + second.key() + " (" + second.sid()
                + ") overlap: a request with " + criterion() + " meets both";
    }
}
