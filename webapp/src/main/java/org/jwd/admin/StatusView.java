package org.jwd.admin;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code GET api/status}: the dispatcher at a glance.
 *
 * @param version  jwd's version ({@code 1.0.0}, {@code 1.0.0-SNAPSHOT} between releases)
 * @param revision the git revision it was built from; {@code unknown} for a build without git
 * @param time     now (ISO-8601)
 * @param started  when the admin interface started (ISO-8601)
 * @param uptimeS  whole seconds since {@code started}
 * @param health   the health checks' settings in words
 * @param strategy {@code wdisp/load_balancing_strategy}
 * @param ready    what {@code /jwd/health/ready} answers now
 * @param accessLog the access logs ({@code icm/HTTP/logging_<xx>}), {@code null} (absent from the JSON) when off
 */
public record StatusView(String version, String revision, String time, String started, long uptimeS, ServerCounts servers,
                         RequestCounts requests, SessionTableView sessionTable, String health, String strategy,
                         Ready ready, @JsonInclude(JsonInclude.Include.NON_NULL) AccessLog accessLog) {
    /**
     * The access logs' files and the lines they lost: together (the first handler's file, every handler's dropped
     * lines, the first failure in force), and each logging handler's in {@code logs}.
     *
     * @param droppedLines lines that never reached a file: the queue was full, or the file could not be written
     * @param failure      why lines are dropped now (a full disk, a read-only directory), {@code null} while written
     */
    public record AccessLog(String file, long droppedLines, String failure, java.util.List<Log> logs) {
        static AccessLog of(org.jwd.accesslog.AccessLog log) {
            org.jwd.accesslog.AccessLogStatus all = log.status();
            return all.on() ? new AccessLog(all.file(), all.droppedLines(), all.failure(), log.statuses().stream()
                    .map(s -> new Log(s.key(), s.file(), s.droppedLines(), s.failure())).toList()) : null;
        }
    }

    /** One logging handler's file and the lines it lost. @param key {@code icm/HTTP/logging_<xx>} */
    public record Log(String key, String file, long droppedLines, String failure) {
    }

    /** Whether a load balancer should send this node traffic, and why (not). */
    public record Ready(boolean ready, String reason) {
    }

    /**
     * The servers by state ({@code total} of the topology, each by its state) and how many registered themselves.
     */
    public record ServerCounts(int total, int up, int drained, int down, int disabled, int registered) {
    }

    /** Requests over every server: {@code stateless} counts those in flight too, as the servers' views do. */
    public record RequestCounts(long served, long inFlight, long errors, long stateful, long stateless) {
    }
}
