package org.jwd.discovery;

/**
 * The last good answers of one system's lists, as SAP wrote them (line ends made LF): what a view is built from,
 * and what the kept file holds, so that a restart reads them with the same parsers.
 *
 * @param serverList    the message server's server list
 * @param urlMap        the ABAP server's {@code icr_urlprefix}, or {@code null} (none answered yet)
 * @param groups        the ABAP server's {@code icr_groups}, or {@code null}
 * @param j2eeUrlMap    a Java server's URL mapping table ({@code wdisp/J2EE/url_map_location}), or {@code null}
 * @param j2eeGroups    a Java server's logon groups ({@code wdisp/J2EE/group_info_location}), or {@code null}
 * @param source        where the server list came from (its URL)
 * @param icfSource     which server answered the ICF's lists (its URL), or {@code null}
 * @param atMillis      when the server list answered
 */
public record Answers(String serverList, String urlMap, String groups, String j2eeUrlMap, String j2eeGroups,
                      String source, String icfSource, long atMillis) {
    /** {@code body} with LF line ends; {@code null} stays. */
    static String lf(String body) {
        return body == null ? null : body.replace("\r\n", "\n").replace('\r', '\n');
    }

    public Answers {
        serverList = lf(serverList);
        urlMap = lf(urlMap);
        groups = lf(groups);
        j2eeUrlMap = lf(j2eeUrlMap);
        j2eeGroups = lf(j2eeGroups);
    }

    /** These answers with the ICF's lists of {@code icf} (this record's where {@code icf} has none). */
    Answers withIcf(Answers icf) {
        return new Answers(serverList, icf.urlMap != null ? icf.urlMap : urlMap,
                icf.groups != null ? icf.groups : groups, icf.j2eeUrlMap != null ? icf.j2eeUrlMap : j2eeUrlMap,
                icf.j2eeGroups != null ? icf.j2eeGroups : j2eeGroups,
                source, icf.icfSource != null ? icf.icfSource : icfSource, atMillis);
    }

    /** Whether the lists say the same as {@code other}'s (whenever and wherever they were fetched). */
    boolean sameLists(Answers other) {
        return other != null && java.util.Objects.equals(serverList, other.serverList)
                && java.util.Objects.equals(urlMap, other.urlMap) && java.util.Objects.equals(groups, other.groups)
                && java.util.Objects.equals(j2eeUrlMap, other.j2eeUrlMap)
                && java.util.Objects.equals(j2eeGroups, other.j2eeGroups);
    }
}
