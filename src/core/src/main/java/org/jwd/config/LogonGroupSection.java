package org.jwd.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Reads the {@code logon_group.<G>.*} blocks, and adds SAP's implicit {@code SPACE} when none configures it. */
final class LogonGroupSection {
    static final KeyReader.Family GROUPS = new KeyReader.Family("logon_group.", "<G>",
            "a logon group name of letters, digits, '_' or '-'", "logon group key");
    static final String PREFIX_SYNTAX = "each prefix to start with '/' (or case:/ or icase:/)";

    private LogonGroupSection() {
    }

    static List<LogonGroupConfig> readAll(KeyReader keys) {
        List<LogonGroupConfig> groups = new ArrayList<>();
        Set<String> names = keys.ids(GROUPS);
        for (String name : names) {
            groups.add(read(keys, name));
        }
        if (!names.contains(LogonGroupConfig.SPACE)) {
            // SAP's message server always has SPACE, the group of all servers; a configured SPACE replaces it.
            groups.add(LogonGroupConfig.space());
            groups.sort(Comparator.comparing(LogonGroupConfig::name));
        }
        return groups;
    }

    private static LogonGroupConfig read(KeyReader keys, String name) {
        String prefix = GROUPS.prefix() + name + ".";
        List<String> prefixes = urlPrefixes(keys, prefix + "url_prefixes");
        char type = keys.value(prefix + "type", LogonGroupConfig.DEFAULT_TYPE, "B, R or W",
                t -> switch (t.toUpperCase(Locale.ROOT)) {
                    case "B", "R", "W" -> t.toUpperCase(Locale.ROOT).charAt(0);
                    default -> null;
                });
        boolean fallback = keys.bool(prefix + "fallback", false);
        boolean extRfc = keys.bool(prefix + "ext_rfc", true);
        Duration refresh = keys.duration(prefix + "refresh", LogonGroupConfig.DEFAULT_REFRESH, false,
                "a positive duration: " + Durations.EXPECTED);
        int refreshDispatches = keys.integer(prefix + "refresh_dispatches",
                LogonGroupConfig.DEFAULT_REFRESH_DISPATCHES, 1, Integer.MAX_VALUE, "a positive integer");
        LogonGroupConfig.HttpBalancing httpBalancing = keys.value(prefix + "http_balancing",
                LogonGroupConfig.HttpBalancing.STRATEGY, "strategy (wdisp/load_balancing_strategy, by capacity) or"
                        + " quality (the logon group's type B, R or W)",
                t -> switch (t.toLowerCase(Locale.ROOT)) {
                    case "strategy" -> LogonGroupConfig.HttpBalancing.STRATEGY;
                    case "quality" -> LogonGroupConfig.HttpBalancing.QUALITY;
                    default -> null;
                });
        return new LogonGroupConfig(name, prefixes, type, fallback, extRfc, refresh, refreshDispatches,
                httpBalancing, false);
    }

    /** URL prefixes as the URL mapping table reads them ({@code org.jwd.routing.UrlPrefix}): paths, or after case:/icase:. */
    static List<String> urlPrefixes(KeyReader keys, String key) {
        List<String> prefixes = keys.list(key);
        for (String prefix : prefixes) {
            if (!prefix.startsWith("/") && !prefix.regionMatches(true, 0, "case:/", 0, 6)
                    && !prefix.regionMatches(true, 0, "icase:/", 0, 7)) {
                keys.problem(key, prefix, PREFIX_SYNTAX);
            }
        }
        return prefixes;
    }
}
