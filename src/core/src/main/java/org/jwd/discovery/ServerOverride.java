package org.jwd.discovery;

import java.util.Locale;

import org.jwd.config.KeyReader;

/**
 * SAP's {@code wdisp/server_<xx> = NAME=<instance>, LBA=<n>, LBJ=<n>, ACTIVE=<0|1>}: what an operator says of one
 * discovered instance, over what the server list says. {@code LBA} is the capacity of its ABAP server, {@code LBJ}
 * of its Java server; {@code ACTIVE=0} keeps the instance's servers drained (no new work, their sessions kept).
 *
 * @param name   the SAP instance name ({@code <host>_<SID>_<NN>} or {@code J2EE<cluster id>})
 * @param lba    the ABAP capacity, or {@code null} for the list's
 * @param lbj    the Java capacity, or {@code null} for the list's
 * @param active {@code false} with {@code ACTIVE=0}
 */
public record ServerOverride(String key, String name, Integer lba, Integer lbj, boolean active) {
    public static final String PREFIX = "wdisp/server_";

    /** Whether {@code key} is one of these ({@code wdisp/server_0}), not {@code wdisp/server_info_location}. */
    static boolean isKey(String key) {
        return key.startsWith(PREFIX) && key.substring(PREFIX.length()).matches("\\d{1,4}");
    }

    /** Reads one entry; its problems go to {@code keys}; {@code null} when it has one. */
    static ServerOverride read(KeyReader keys, String key) {
        String value = keys.raw(key);
        String name = null;
        Integer lba = null;
        Integer lbj = null;
        boolean active = true;
        int before = keys.problemCount();
        for (String part : value.split(",")) {
            String item = part.strip();
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.indexOf('=');
            String field = eq < 0 ? item : item.substring(0, eq).strip().toUpperCase(Locale.ROOT);
            String text = eq < 0 ? "" : item.substring(eq + 1).strip();
            switch (field) {
                case "NAME" -> name = text.isEmpty() || text.contains(" ") ? null : text;
                case "LBA" -> lba = capacity(keys, key, value, "LBA", text);
                case "LBJ" -> lbj = capacity(keys, key, value, "LBJ", text);
                case "ACTIVE" -> active = active(keys, key, value, text);
                default -> keys.problemText(key, key + " = '" + value + "': unknown subparameter '" + item
                        + "': expected NAME, LBA, LBJ and ACTIVE");
            }
        }
        if (name == null) {
            keys.problemText(key, key + " = '" + value + "': expected NAME=<SAP instance name> (<host>_<SID>_<NN>)");
        }
        return keys.problemCount() > before ? null : new ServerOverride(key, name, lba, lbj, active);
    }

    private static Integer capacity(KeyReader keys, String key, String value, String field, String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        keys.problemText(key, key + " = '" + value + "': " + field + " '" + text + "': expected a positive integer"
                + " (the capacity)");
        return null;
    }

    private static boolean active(KeyReader keys, String key, String value, String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "1", "true" -> true;
            case "0", "false" -> false;
            default -> {
                keys.problemText(key, key + " = '" + value + "': ACTIVE '" + text + "': expected 1 or 0");
                yield true;
            }
        };
    }

    @Override
    public String toString() {
        return key + " = NAME=" + name + (lba == null ? "" : ", LBA=" + lba) + (lbj == null ? "" : ", LBJ=" + lbj)
                + (active ? "" : ", ACTIVE=0");
    }
}
