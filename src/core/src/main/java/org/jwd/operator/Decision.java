package org.jwd.operator;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jwd.config.ServerState;
import org.jwd.topology.Server;

/**
 * What an operator decided of one server: its admin state, what the configuration said of it then
 * ({@code server.<id>.state}: a decision holds until that value changes), when (epoch milliseconds) and who
 * ({@code user from address}).
 */
public record Decision(Server.AdminState state, ServerState configured, long atMillis, String by) {
    /** One line a server: {@code <id>=<state>|<configured>|<at>|<by>}; ids and states have no '=' or '|'. */
    static String encode(Map<String, Decision> decisions) {
        StringBuilder text = new StringBuilder();
        decisions.forEach((id, d) -> text.append(id).append('=').append(d.state.name()).append('|')
                .append(d.configured.name()).append('|').append(d.atMillis).append('|').append(d.by).append('\n'));
        return text.toString();
    }

    /** Reads what {@link #encode} wrote; a line it cannot read is left out. */
    static Map<String, Decision> decode(String text) {
        Map<String, Decision> decisions = new LinkedHashMap<>();
        if (text == null) {
            return decisions;
        }
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            String[] f = eq < 0 ? new String[0] : line.substring(eq + 1).split("\\|", 4);
            if (f.length == 4) {
                try {
                    decisions.put(line.substring(0, eq), new Decision(Server.AdminState.valueOf(f[0]),
                            ServerState.valueOf(f[1]), Long.parseLong(f[2]), f[3]));
                } catch (IllegalArgumentException e) {
                    // a line of another version, or damaged: that server follows its configuration
                }
            }
        }
        return decisions;
    }

    /** The admin state the configuration's {@code state} means. */
    static Server.AdminState of(ServerState configured) {
        return switch (configured) {
            case ACTIVE -> Server.AdminState.ENABLED;
            case DRAINED -> Server.AdminState.DRAINED;
            case DISABLED -> Server.AdminState.DISABLED;
        };
    }
}
