package org.jwd.discovery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the logon groups as the ICF serves them at {@code /sap/public/icf_info/icr_groups}
 * ({@code wdisp/group_info_location}) and as Workload Distribution writes {@code icrgroups.txt}: a line
 * {@code version 1.0}, the instance names one a line, an empty line, then {@code <group>:<instance>,<instance>}
 * lines. Sources: SAP Help, "Server Groups in the Internet Communication Framework"
 * (help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm),
 * "wdisp/group_info_location" (help.sap.com/doc/saphelp_nw74/7.4.16/en-us/08/2b0609b68641138c6dfea893d4b70e/content.htm)
 * and "Configuring the SAP Web Dispatcher" of Workload Distribution
 * (help.sap.com/saphelp_sm71_sp13/helpdata/en/87/252c4142aef623e10000000a155106/content.htm).
 *
 * <p>A line with a ':' is a group line wherever it stands (a file without the empty line reads the same); CRLF or
 * LF; blank and '#' lines are skipped. A group line without a name or without members is reported and skipped; a
 * group given twice gets the members of both lines.
 */
public final class IcrGroupsParser {
    private static final Pattern VERSION = Pattern.compile("(?i)version\\s+\\d+\\.\\d+");
    private static final Pattern NAME = Pattern.compile("[^\\s:,]+");

    private IcrGroupsParser() {
    }

    /** @throws InfoFormatException when the first line is no {@code version} line (an HTML page, a log-on page) */
    public static IcrGroups parse(String body) throws InfoFormatException {
        String[] lines = body.split("\r\n|\r|\n");
        int first = 0;
        while (first < lines.length && lines[first].isBlank()) {
            first++;
        }
        String head = first < lines.length ? lines[first].strip() : "";
        if (!VERSION.matcher(head).matches()) {
            throw new InfoFormatException(head.isEmpty() ? "an empty answer, not a group list"
                    : "not a group list: the first line is " + ServerListParser.quote(head)
                    + ", expected 'version 1.0'");
        }
        List<String> instances = new ArrayList<>();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = first + 1; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                if (NAME.matcher(line).matches()) {
                    instances.add(line);
                } else {
                    problems.add("line " + (i + 1) + ": " + ServerListParser.quote(line) + " is no instance name");
                }
                continue;
            }
            group(line, colon, i + 1, groups, problems);
        }
        return new IcrGroups(instances, groups, problems);
    }

    private static void group(String line, int colon, int number, Map<String, List<String>> groups,
                              List<String> problems) {
        String group = line.substring(0, colon).strip();
        List<String> members = new ArrayList<>();
        for (String m : line.substring(colon + 1).split(",")) {
            if (NAME.matcher(m.strip()).matches()) {
                members.add(m.strip());
            } else if (!m.isBlank()) {
                problems.add("line " + number + ": member " + ServerListParser.quote(m.strip()) + " of group "
                        + group + " is no instance name: left out");
            }
        }
        if (!NAME.matcher(group).matches() || members.isEmpty()) {
            problems.add("line " + number + ": " + ServerListParser.quote(line) + " is no <group>:<instance>,..."
                    + " line: skipped");
            return;
        }
        List<String> all = groups.computeIfAbsent(group, g -> new ArrayList<>());
        members.stream().filter(m -> !all.contains(m)).forEach(all::add);
    }
}
