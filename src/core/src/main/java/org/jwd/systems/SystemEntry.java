package org.jwd.systems;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jwd.routing.UrlPrefix;
import org.jwd.tls.SslEncrypt;

/**
 * One system: a parsed {@code wdisp/system_<xx>} entry, or the {@link #implicit() implicit system} of a
 * configuration without any.
 *
 * <p>A request matches the entry when it meets every criterion the entry gives: one of its {@code SRCSRV} access
 * points, one of its {@code SRCVHOST} virtual hosts, one of its {@code SRCURL} prefixes (as SAP's own example
 * combines them: {@code SRCSRV=*:443, SRCURL=/sap/opu/odata/} is that port and that prefix). A criterion the entry
 * leaves out is met by every request; a missing {@code SRCURL} counts as the prefix {@code /}, the shortest.
 *
 * @param number          the {@code <xx>} of {@code wdisp/system_<xx>}: the entry order; -1 for the implicit system
 * @param sid             the system's id, three letters or digits starting with a letter; {@code null} for the
 *                        implicit system
 * @param accessPoints    {@code SRCSRV}; empty when not given
 * @param urlPrefixes     {@code SRCURL}, matched as ICF prefixes are (whole segments, regardless of case unless
 *                        {@code case:}); empty when not given
 * @param virtualHosts    {@code SRCVHOST}; empty when not given
 * @param sslEncrypt      {@code SSL_ENCRYPT}; {@code null} when not given (the global {@code wdisp/ssl_encrypt})
 * @param externalServers {@code EXTSRV}: {@code http://host:port} or {@code https://host:port}; empty when the
 *                        servers are jwd's {@code system.<SID>.server.<id>.*} keys
 * @param sticky          {@code STICKY}: whether a client stays with one external server
 * @param serverSource    {@code MSHOST} with {@code MSPORT} or {@code MSSPORT}, or {@code SILOC}: where SAP is asked
 *                        for the system's servers; {@code null} when none is given
 */
public record SystemEntry(int number, String sid, List<AccessPoint> accessPoints, List<UrlPrefix> urlPrefixes,
                          List<VirtualHost> virtualHosts, SslEncrypt sslEncrypt, List<URI> externalServers,
                          boolean sticky, ServerSource serverSource) {
    public static final String KEY_PREFIX = "wdisp/system_";
    /** What a missing {@code SRCURL} means: every path, ranked below every configured prefix. */
    static final UrlPrefix ROOT = new UrlPrefix("/", false);
    private static final SystemEntry IMPLICIT = new SystemEntry(-1, null, List.of(), List.of(), List.of(), null,
            List.of(), false, null);

    public SystemEntry {
        accessPoints = List.copyOf(accessPoints);
        urlPrefixes = List.copyOf(urlPrefixes);
        virtualHosts = List.copyOf(virtualHosts);
        externalServers = List.copyOf(externalServers);
    }

    /** The one system of a configuration without {@code wdisp/system_<xx>}: it takes every request. */
    public static SystemEntry implicit() {
        return IMPLICIT;
    }

    public boolean isImplicit() {
        return sid == null;
    }

    /** {@code wdisp/system_<xx>}, the key this entry was read from. */
    public String key() {
        return isImplicit() ? "(no wdisp/system_<xx>)" : KEY_PREFIX + number;
    }

    /** The access point of this entry a connection accepted there arrived on, or {@code null}; see the class comment. */
    AccessPoint accessPointMatching(String localAddress, int localPort) {
        for (AccessPoint a : accessPoints) {
            if (a.matches(localAddress, localPort)) {
                return a;
            }
        }
        return null;
    }

    /** The virtual host of this entry that {@code requested} addressed, or {@code null}. */
    VirtualHost virtualHostMatching(VirtualHost requested) {
        if (requested == null) {
            return null;
        }
        for (VirtualHost v : virtualHosts) {
            if (v.matches(requested)) {
                return v;
            }
        }
        return null;
    }

    /** The longest prefix of this entry covering {@code path}, {@link #ROOT} without {@code SRCURL}, or {@code null}. */
    UrlPrefix longestPrefix(String path) {
        if (urlPrefixes.isEmpty()) {
            return ROOT;
        }
        UrlPrefix best = null;
        for (UrlPrefix p : urlPrefixes) {
            if (covers(p, path) && (best == null || p.prefix().length() > best.prefix().length())) {
                best = p;
            }
        }
        return best;
    }

    /**
     * Whether {@code prefix} covers the normalized {@code path}: it is a prefix of {@code path}, or of {@code path + "/"}
     * ({@code /sap/bc} is covered by {@code /sap/bc/}), compared per character regardless of case unless the prefix is
     * case-sensitive: the rule of {@link UrlPrefix} and of the ICF.
     */
    static boolean covers(UrlPrefix prefix, String path) {
        String p = prefix.prefix();
        boolean ignoreCase = !prefix.caseSensitive();
        if (path.length() >= p.length()) {
            return path.regionMatches(ignoreCase, 0, p, 0, p.length());
        }
        return path.length() == p.length() - 1 && path.regionMatches(ignoreCase, 0, p, 0, path.length());
    }

    /** Whether some path has both as its covering prefix of the same length: one prefix, as far as matching goes. */
    static boolean samePrefix(UrlPrefix a, UrlPrefix b) {
        boolean ignoreCase = !(a.caseSensitive() && b.caseSensitive());
        return a.prefix().length() == b.prefix().length()
                && a.prefix().regionMatches(ignoreCase, 0, b.prefix(), 0, b.prefix().length());
    }

    /** The entry as it would be written back: {@code wdisp/system_1 = SID=ERP, SRCURL=/sap/;/irj/}. */
    @Override
    public String toString() {
        if (isImplicit()) {
            return "the implicit system " + key();
        }
        List<String> parts = new ArrayList<>();
        parts.add("SID=" + sid);
        if (!externalServers.isEmpty()) {
            parts.add("EXTSRV=" + join(externalServers));
            parts.add("STICKY=" + sticky);
        }
        if (serverSource != null) {
            parts.add(serverSource.toString());
        }
        if (!accessPoints.isEmpty()) {
            parts.add("SRCSRV=" + join(accessPoints));
        }
        if (!urlPrefixes.isEmpty()) {
            parts.add("SRCURL=" + join(urlPrefixes));
        }
        if (!virtualHosts.isEmpty()) {
            parts.add("SRCVHOST=" + join(virtualHosts));
        }
        if (sslEncrypt != null) {
            parts.add("SSL_ENCRYPT=" + sslEncrypt.value());
        }
        return key() + " = " + String.join(", ", parts);
    }

    private static String join(List<?> items) {
        return String.join(";", items.stream().map(Objects::toString).toList());
    }
}
