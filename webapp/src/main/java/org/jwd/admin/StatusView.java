package org.jwd.admin;

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
 */
public record StatusView(String version, String revision, String time, String started, long uptimeS, ServerCounts servers,
                         RequestCounts requests, SessionTableView sessionTable, String health, String strategy,
                         Ready ready) {
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
