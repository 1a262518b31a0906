package org.jwd.discovery;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the message server's list of application servers ({@code /msgserver/text/logon}, {@code wdisp/server_info_location}),
 * as SAP Help specifies it in "Application Server List"
 * (help.sap.com/saphelp_crm60/helpdata/en/1f/63af32f15e7d479227a9528c5def2a/content.htm) and "SAP Application
 * Server List Retrieval Specification" (help.sap.com/saphelp_scm70/helpdata/ru/67/f2a88355de4690a429a25ef83c89b2/content.htm):
 * <pre>
 * version 1.2
 * &lt;sap-server-name&gt;
 * &lt;protocol-type&gt; &lt;host&gt; &lt;port&gt; &lt;description&gt;
 * ...
 * (empty line)
 * &lt;sap-server-name&gt;
 * ...
 * </pre>
 * SAP writes CRLF and separates the fields by tabs; LF and spaces are read alike. Rows of a protocol jwd does not
 * know are skipped ({@link #PROTOCOLS}); a row with a port that is no number, a row cut short, an instance named
 * twice or without any row is reported and left out; a body whose first line is no {@code version} line (an HTML
 * error page, a login page) is no server list at all ({@link InfoFormatException}).
 */
public final class ServerListParser {
    /** The protocols of the list jwd reads; others (and later ones) are skipped. */
    public static final Set<String> PROTOCOLS = Set.of("DIAG", "DIAGS", "RFC", "RFCS", "HTTP", "HTTPS", "SMTP",
            "J2EE", "J2EES", "P4", "P4S", "IIOP", "IIOPS", "TELNET", "ROUTER");
    private static final Pattern VERSION = Pattern.compile("(?i)version\\s+(\\d+\\.\\d+)");
    private static final Pattern FIELDS = Pattern.compile("[\\t ]+");
    private static final int MAX_QUOTED = 60;

    private ServerListParser() {
    }

    /** @throws InfoFormatException when the body is not a server list (its first line is no version line) */
    public static ServerList parse(String body) throws InfoFormatException {
        String[] lines = body.split("\r\n|\r|\n", -1);
        int first = 0;
        while (first < lines.length && lines[first].isBlank()) {
            first++;
        }
        String head = first < lines.length ? lines[first].strip() : "";
        var version = VERSION.matcher(head);
        if (!version.matches()) {
            throw new InfoFormatException(head.isEmpty() ? "an empty answer, not a server list"
                    : head.startsWith("<") ? "an HTML page, not a server list (first line " + quote(head) + ")"
                    : "not a server list: the first line is " + quote(head) + ", expected 'version 1.2'");
        }
        List<String> problems = new ArrayList<>();
        List<ServerList.Instance> instances = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        String name = null;
        List<ServerList.Row> rows = new ArrayList<>();
        for (int i = first + 1; i <= lines.length; i++) {
            String line = i < lines.length ? lines[i].strip() : "";
            if (line.isEmpty()) {
                if (name != null) {
                    add(name, rows, names, instances, problems);
                }
                name = null;
                rows = new ArrayList<>();
            } else if (name == null) {
                name = instanceName(line, i + 1, problems);
            } else {
                ServerList.Row row = row(line, name, i + 1, problems);
                if (row != null) {
                    rows.add(row);
                }
            }
        }
        return new ServerList(version.group(1), instances, problems);
    }

    private static String instanceName(String line, int number, List<String> problems) {
        String[] fields = FIELDS.split(line);
        if (fields.length > 1) {
            problems.add("line " + number + ": " + quote(line) + " is no instance name (expected one word,"
                    + " <host>_<SID>_<NN>); read " + quote(fields[0]));
        }
        return fields[0];
    }

    private static void add(String name, List<ServerList.Row> rows, Set<String> names,
                            List<ServerList.Instance> instances, List<String> problems) {
        if (!names.add(name)) {
            problems.add("instance " + name + " is listed twice: the second is left out");
        } else if (rows.isEmpty()) {
            problems.add("instance " + name + " has no row of a known protocol (a list cut short?): left out");
        } else {
            instances.add(new ServerList.Instance(name, rows));
        }
    }

    /** A row, or {@code null} for one that is skipped (an unknown protocol) or reported. */
    private static ServerList.Row row(String line, String instance, int number, List<String> problems) {
        String[] fields = FIELDS.split(line, 4);
        String protocol = fields[0].toUpperCase(Locale.ROOT);
        if (!PROTOCOLS.contains(protocol)) {
            return null;
        }
        String where = "line " + number + " (instance " + instance + "): ";
        if (fields.length < 3) {
            problems.add(where + quote(line) + " is cut short: expected <protocol> <host> <port> <description>");
            return null;
        }
        int port;
        try {
            port = Integer.parseInt(fields[2]);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            problems.add(where + "port " + quote(fields[2]) + " of " + protocol + " is not a port number (1-65535):"
                    + " the row is left out");
            return null;
        }
        return new ServerList.Row(protocol, fields[1], port, fields.length > 3 ? fields[3].strip() : "");
    }

    static String quote(String text) {
        String cut = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
        return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
    }
}
