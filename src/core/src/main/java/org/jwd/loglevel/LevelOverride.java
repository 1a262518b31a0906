package org.jwd.loglevel;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A logger's level as an operator set it while jwd runs: until when (epoch milliseconds), then the logger returns to
 * its configured level; who set it ({@code user from address}) and when.
 */
public record LevelOverride(String logger, String level, long atMillis, long untilMillis, String by) {
    public LevelOverride {
        if (logger.contains("=") || logger.contains("\n") || by.contains("\n")) {
            throw new IllegalArgumentException("a logger's name or a user with '=' or a line break: " + logger);
        }
    }

    /** Whether it has expired at {@code nowMillis}. */
    boolean expired(long nowMillis) {
        return nowMillis >= untilMillis;
    }

    /** One line a logger, as the cluster shares them: {@code <logger>=<level>|<at>|<until>|<by>}. */
    static String encode(Collection<LevelOverride> overrides) {
        StringBuilder text = new StringBuilder();
        for (LevelOverride o : overrides) {
            text.append(o.logger).append('=').append(o.level).append('|').append(o.atMillis).append('|')
                    .append(o.untilMillis).append('|').append(o.by).append('\n');
        }
        return text.toString();
    }

    /** Reads what {@link #encode} wrote, by logger; a line it cannot read is left out. */
    static Map<String, LevelOverride> decode(String text) {
        Map<String, LevelOverride> overrides = new LinkedHashMap<>();
        if (text == null) {
            return overrides;
        }
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            String[] f = eq < 0 ? new String[0] : line.substring(eq + 1).split("\\|", 4);
            try {
                if (f.length == 4) {
                    String logger = line.substring(0, eq);
                    overrides.put(logger, new LevelOverride(logger, f[0], Long.parseLong(f[1]), Long.parseLong(f[2]),
                            f[3]));
                }
            } catch (IllegalArgumentException e) {
                // a line of another version, or damaged: that logger keeps its configured level
            }
        }
        return overrides;
    }
}
