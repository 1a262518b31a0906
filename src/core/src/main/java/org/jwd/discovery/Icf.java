package org.jwd.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.jwd.routing.IcrUrlPrefixParser;
import org.jwd.routing.UrlPrefix;

/**
 * What the ICF's lists of one system say, read: the URL mapping table's lines (ABAP's and Java's) and the logon
 * groups of each stack. The ABAP lines without a group are the URL mapping table; a line with {@code GROUP=} gives
 * that logon group a prefix (of its stack); a group's members are the instances {@code icr_groups} names.
 * {@code PREFIX=/} would make every URL ABAP (or send every URL to one group): it is left out and reported.
 */
record Icf(List<IcrUrlPrefixParser.Entry> entries, IcrGroups abapGroups, IcrGroups javaGroups) {
    static Icf read(Answers answers, List<String> problems) {
        List<IcrUrlPrefixParser.Entry> entries = new ArrayList<>();
        for (String body : new String[] {answers.urlMap(), answers.j2eeUrlMap()}) {
            if (body != null) {
                IcrUrlPrefixParser.Result r = IcrUrlPrefixParser.parse(body);
                r.problems().forEach(p -> problems.add("URL mapping table: " + p));
                for (IcrUrlPrefixParser.Entry e : r.entries()) {
                    if (e.prefix().prefix().equals("/")) {
                        problems.add("URL mapping table: PREFIX=/ would take every URL" + (e.group() == null ? ""
                                : " to group " + e.group()) + ": left out");
                    } else {
                        entries.add(e);
                    }
                }
            }
        }
        return new Icf(entries, groups(answers.groups(), "icr_groups", problems),
                groups(answers.j2eeGroups(), "the Java logon groups", problems));
    }

    private static IcrGroups groups(String body, String what, List<String> problems) {
        if (body == null) {
            return IcrGroups.NONE;
        }
        try {
            IcrGroups groups = IcrGroupsParser.parse(body);
            groups.problems().forEach(p -> problems.add(what + ": " + p));
            return groups;
        } catch (InfoFormatException e) {
            problems.add(what + ": " + e.getMessage() + ": no logon group read");
            return IcrGroups.NONE;
        }
    }

    /** The ABAP lines' prefixes: the URL mapping table. */
    List<UrlPrefix> abapPrefixes() {
        return entries.stream().filter(e -> e.stack() == ServerType.ABAP).map(IcrUrlPrefixParser.Entry::prefix)
                .distinct().toList();
    }

    /** The logon groups of this stack whose members name {@code instance}. */
    List<String> groupsOf(String instance, ServerType stack) {
        IcrGroups groups = stack == ServerType.ABAP ? abapGroups : javaGroups;
        List<String> of = new ArrayList<>();
        groups.groups().forEach((g, members) -> {
            if (members.contains(instance) && !g.equals(LogonGroupConfig.SPACE)) {
                of.add(g);
            }
        });
        return of;
    }

    /** Each logon group with members among {@code servers}, with the prefixes the lines give it, by name. */
    List<LogonGroupConfig> groups(List<ServerConfig> servers, List<String> problems) {
        Map<String, List<String>> prefixes = new java.util.TreeMap<>();
        servers.forEach(s -> s.logonGroups().forEach(g -> prefixes.putIfAbsent(g, new ArrayList<>())));
        for (IcrUrlPrefixParser.Entry e : entries) {
            if (e.group() == null) {
                continue;
            }
            List<String> of = prefixes.get(e.group());
            if (of == null) {
                problems.add("URL mapping table: group " + e.group() + " of " + e.prefix() + " has no member among"
                        + " the listed instances: the prefix selects no group");
            } else if (!of.contains(e.prefix().toString())) {
                of.add(e.prefix().toString());
            }
        }
        List<LogonGroupConfig> groups = new ArrayList<>();
        prefixes.forEach((name, p) -> groups.add(new LogonGroupConfig(name, p, LogonGroupConfig.DEFAULT_TYPE, false,
                true, LogonGroupConfig.DEFAULT_REFRESH, LogonGroupConfig.DEFAULT_REFRESH_DISPATCHES,
                LogonGroupConfig.HttpBalancing.STRATEGY, false)));
        return groups;
    }
}
