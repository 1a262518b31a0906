package org.jwd.demo;

/**
 * What the demo's ABAP servers answer for the ICF's lists (SAP Help, "Server Groups in the Internet Communication
 * Framework"): {@code icr_urlprefix}, the URL mapping table with the logon groups' prefixes, and {@code icr_groups},
 * the logon groups of transaction SMLG. One shared value per JVM, as SAP's ICF is one per system: every ABAP server
 * of the system answers the same lists. A test or the demo sets it; the default is the prefix {@code /sap/} and no
 * logon group.
 */
public final class IcfInfo {
    /** The demo's default URL mapping table: every {@code /sap/} URL is ABAP. */
    public static final String DEFAULT_URL_PREFIXES = "version 1.0\r\nPREFIX=/sap/&CASE=&VHOST=*.*;&STACK=ABAP\r\n";
    /** No logon group: {@code version 1.0}, no instance, an empty line. */
    public static final String NO_GROUPS = "version 1.0\r\n\r\n";
    private static volatile String urlPrefixes = DEFAULT_URL_PREFIXES;
    private static volatile String groups = NO_GROUPS;

    private IcfInfo() {
    }

    /** What {@code /sap/public/icf_info/icr_urlprefix} answers. */
    public static String urlPrefixes() {
        return urlPrefixes;
    }

    /** What {@code /sap/public/icf_info/icr_groups} answers. */
    public static String groups() {
        return groups;
    }

    /**
     * Sets both lists, in SAP's format.
     *
     * @param prefixLines lines {@code PREFIX=/sap/bc/&GROUP=G&CASE=&VHOST=*.*;&STACK=ABAP}, after {@code version 1.0}
     * @param groupLines  lines {@code <group>:<instance>,<instance>}, after the instance names and an empty line
     */
    public static void set(String prefixLines, String groupLines) {
        urlPrefixes = "version 1.0\r\n" + prefixLines.replace("\n", "\r\n").replace("\r\r", "\r");
        StringBuilder g = new StringBuilder("version 1.0\r\n");
        groupLines.lines().flatMap(l -> l.contains(":") ? java.util.Arrays.stream(l.substring(l.indexOf(':') + 1)
                .split(",")) : java.util.stream.Stream.of()).map(String::strip).distinct()
                .forEach(i -> g.append(i).append("\r\n"));
        g.append("\r\n");
        groupLines.lines().filter(l -> !l.isBlank()).forEach(l -> g.append(l.strip()).append("\r\n"));
        groups = g.toString();
    }

    /** Back to the defaults. */
    public static void reset() {
        urlPrefixes = DEFAULT_URL_PREFIXES;
        groups = NO_GROUPS;
    }
}
