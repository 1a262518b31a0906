package org.jwd.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import org.jwd.admin.AdminJson;

/**
 * {@code bin/jwd log-level}: a running jwd's log levels ({@code GET api/loglevels}): those set while it runs, each
 * with the level it returns to and until when, and the levels in effect of the loggers looked for first;
 * {@code bin/jwd log-level LOGGER LEVEL [--for 10m]} sets one ({@code POST api/loglevels}) on every node of its
 * cluster for a while, {@code bin/jwd log-level LOGGER reset} returns it to its configured level now.
 *
 * <pre>
 * $ bin/jwd log-level org.jwd.routing DEBUG --for 10m
 * org.jwd.routing DEBUG until 2026-12-04T10:42:00Z, then INFO (set by admin from 127.0.0.1; kept on this node only,
 * until it restarts)
 * </pre>
 */
final class LogLevel {
    private LogLevel() {
    }

    /**
     * @param words nothing (the levels), or the logger and the level ({@code reset}: back to its configured level)
     * @return 0 done, 1 refused or not shared with the cluster's nodes
     */
    static int run(List<String> words, String forHowLong, ApiClient api, PrintStream out, PrintStream err)
            throws ApiClient.Stop {
        if (words.isEmpty()) {
            JsonNode levels = api.get("loglevels");
            print(levels, out);
            levels.path("loggers").forEach(l -> out.println(l.path("logger").asText() + " " + l.path("level").asText()));
            return 0;
        }
        Map<String, String> body = new LinkedHashMap<>();
        body.put("logger", words.get(0));
        body.put("level", words.get(1));
        if (forHowLong != null) {
            body.put("for", forHowLong);
        }
        JsonNode levels = api.post("loglevels", AdminJson.write(body));
        if (words.get(1).equalsIgnoreCase("reset")) {
            out.println(words.get(0) + " has its configured level again");
        }
        print(levels, out);
        if (levels.hasNonNull("problem")) {
            err.println("jwd log-level: set on this node only, not shared: " + levels.get("problem").asText());
            return 1;
        }
        return 0;
    }

    /** The levels set: one line each. */
    private static void print(JsonNode levels, PrintStream out) {
        for (JsonNode l : levels.path("levels")) {
            out.println(l.path("logger").asText() + " " + l.path("level").asText() + " until "
                    + l.path("until").asText() + ", then " + l.path("configured").asText() + " (set by "
                    + l.path("by").asText() + "; kept " + levels.path("kept").asText() + ")");
        }
    }
}
