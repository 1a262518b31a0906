package org.jwd.discovery;

import org.jwd.config.KeyReader;

/**
 * Where each list is read: a path on the message server or on an application server of the list, or a
 * {@code file://<path>} (SAP's {@code urlinfo.txt}, {@code icrgroups.txt}, {@code info.icr}).
 *
 * @param serverInfo    {@code wdisp/server_info_location}: the server list on the message server
 * @param urlMap        {@code wdisp/url_map_location}: the URL mapping table on an ABAP server
 * @param groupInfo     {@code wdisp/group_info_location}: the logon groups on an ABAP server
 * @param j2eeUrlMap    {@code wdisp/J2EE/url_map_location} on a Java server, or {@code null} (no default)
 * @param j2eeGroupInfo {@code wdisp/J2EE/group_info_location} on a Java server, or {@code null}
 */
public record Locations(String serverInfo, String urlMap, String groupInfo, String j2eeUrlMap,
                        String j2eeGroupInfo) {
    static final Locations DEFAULT = new Locations("/msgserver/text/logon", "/sap/public/icf_info/icr_urlprefix",
            "/sap/public/icf_info/icr_groups", null, null);
    private static final String EXPECTED = "a path starting with '/' or file://<path>";

    static Locations read(KeyReader keys) {
        return new Locations(
                location(keys, DiscoveryConfig.SERVER_INFO, DEFAULT.serverInfo),
                location(keys, "wdisp/url_map_location", DEFAULT.urlMap),
                location(keys, "wdisp/group_info_location", DEFAULT.groupInfo),
                location(keys, "wdisp/J2EE/url_map_location", null),
                location(keys, "wdisp/J2EE/group_info_location", null));
    }

    private static String location(KeyReader keys, String key, String fallback) {
        return keys.value(key, fallback, EXPECTED, text -> {
            String t = text.strip();
            if (t.regionMatches(true, 0, "file://", 0, 7) && t.length() > 7) {
                return java.nio.file.Path.of(t.substring(7)).toUri().toString();
            }
            return t.startsWith("/") && t.chars().noneMatch(c -> c <= ' ') ? t : null;
        });
    }
}
