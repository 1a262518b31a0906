package org.jwd.discovery;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.ServerType;
import org.jwd.routing.IcrUrlPrefixParser;

/**
 * Asks the ICF's lists of one stack (the URL mapping table and the logon groups) from the servers of a server list,
 * one after the other as SAP's Web Dispatcher does, until one answers both with lists; or reads them from files
 * ({@code file://}). What a server that cannot answer did is kept for the log line.
 */
final class IcfFetch {
    private final InfoFetcher fetcher;

    IcfFetch(InfoFetcher fetcher) {
        this.fetcher = fetcher;
    }

    /** The lists, or why no server gave them. */
    record Result(String urlMap, String groups, String source, List<String> failures) {
    }

    /**
     * @param urlMap    the URL mapping table's location (a path or a {@code file:} URI), or {@code null}
     * @param groups    the logon groups' location, or {@code null}
     * @param stack     whose servers are asked
     */
    Result fetch(ServerList list, String urlMap, String groups, ServerType stack) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        if (urlMap == null && groups == null) {
            return new Result(null, null, null, failures);
        }
        // no server of the stack (a Java-only system has no ICF): nothing to ask, nothing failed
        List<URI> candidates = candidates(list, stack, urlMap, groups);
        for (URI base : candidates) {
            try {
                String map = urlMap == null ? null : checkedMap(fetcher.fetch(resolve(base, urlMap)));
                String grp = groups == null ? null : checkedGroups(fetcher.fetch(resolve(base, groups)));
                return new Result(map, grp, base == null ? fileOf(urlMap, groups) : base.toString(), failures);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failures.add((base == null ? fileOf(urlMap, groups) : base.toString()) + ": "
                        + InfoFetcher.describe(e));
            }
        }
        return new Result(null, null, null, failures);
    }

    /** The servers to ask, in the list's order; one {@code null} (no server) when both lists are files. */
    private static List<URI> candidates(ServerList list, ServerType stack, String urlMap, String groups) {
        List<URI> candidates = new ArrayList<>();
        if ((urlMap == null || urlMap.startsWith("file:")) && (groups == null || groups.startsWith("file:"))) {
            candidates.add(null);
            return candidates;
        }
        for (ServerList.Instance i : list.instances()) {
            boolean fits = stack == ServerType.ABAP ? i.hasAbap() : i.hasJava() || !i.hasAbap();
            ServerList.Row http = i.row("HTTP");
            ServerList.Row https = i.row("HTTPS");
            if (fits && (http != null || https != null)) {
                try {
                    candidates.add(URI.create(http != null ? "http://" + http.host() + ":" + http.port()
                            : "https://" + https.host() + ":" + https.port()));
                } catch (IllegalArgumentException e) {
                    // a host that is no host name: the view builder reports the instance
                }
            }
        }
        return candidates;
    }

    private static URI resolve(URI base, String location) {
        return location.startsWith("file:") || base == null ? URI.create(location) : URI.create(base + location);
    }

    private static String fileOf(String urlMap, String groups) {
        return urlMap != null ? urlMap : groups;
    }

    /** An answer without a single prefix (an error or log-on page served with 200) is no URL mapping table. */
    private static String checkedMap(String body) throws InfoFormatException {
        if (IcrUrlPrefixParser.parse(body).entries().isEmpty()) {
            throw new InfoFormatException("the URL mapping table has no PREFIX= line");
        }
        return body;
    }

    private static String checkedGroups(String body) throws InfoFormatException {
        IcrGroupsParser.parse(body);
        return body;
    }
}
