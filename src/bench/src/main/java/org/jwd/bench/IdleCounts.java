package org.jwd.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What {@link IdleConnections} has done with its connections so far, as one line that its status file and its output
 * carry and that {@code src/bench/run idle} reads back ({@link #parse}).
 *
 * @param connections what it was asked to open
 * @param attempted   connections started (connect called)
 * @param open        answered with a 2xx and held open, idle, now
 * @param status      answered with a status other than 2xx (then closed by the client)
 * @param closed      closed by the server before or with their answer (EOF, reset, {@code Connection: close}, a
 *                    body that ends at the close, a malformed answer)
 * @param refused     could not connect (refused, no descriptor left in the client, ...)
 * @param unanswered  no complete answer within the answer timeout (then closed by the client)
 * @param closedIdle  held open after their answer, then closed by the server while idle
 */
public record IdleCounts(int connections, int attempted, int open, int status, int closed, int refused,
                         int unanswered, int closedIdle) {

    /** The connections that never got to be held. */
    int failed() {
        return status + closed + refused + unanswered;
    }

    /** Every connection was started, and each is held, failed or closed since: nothing is in progress. */
    boolean settled() {
        return attempted == connections && open + failed() + closedIdle == attempted;
    }

    /** {@code connections=N attempted=N open=N status=N closed=N refused=N unanswered=N closed_idle=N} */
    @Override
    public String toString() {
        return "connections=" + connections + " attempted=" + attempted + " open=" + open + " status=" + status
                + " closed=" + closed + " refused=" + refused + " unanswered=" + unanswered
                + " closed_idle=" + closedIdle;
    }

    /** @throws IllegalArgumentException naming the line when it is not one {@link #toString()} writes */
    static IdleCounts parse(String line) {
        Map<String, Integer> values = new LinkedHashMap<>();
        try {
            for (String field : line.trim().split("\\s+")) {
                int eq = field.indexOf('=');
                values.put(field.substring(0, eq), Integer.parseInt(field.substring(eq + 1)));
            }
        } catch (RuntimeException e) {
            values.clear();
        }
        String[] names = {"connections", "attempted", "open", "status", "closed", "refused", "unanswered",
            "closed_idle"};
        if (!values.keySet().equals(Set.of(names))) {
            throw new IllegalArgumentException("not the status of IdleConnections (" + String.join("=N ", names)
                    + "=N): '" + line + "'");
        }
        return new IdleCounts(values.get(names[0]), values.get(names[1]), values.get(names[2]), values.get(names[3]),
                values.get(names[4]), values.get(names[5]), values.get(names[6]), values.get(names[7]));
    }
}
