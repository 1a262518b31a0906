package org.jwd.admin;

import java.util.List;
import java.util.Map;

/**
 * {@code GET api/history}: requests served per server, sampled every {@code intervalMs}, oldest first, the last
 * sample taken at the time of the answer.
 */
public record HistoryView(long intervalMs, List<Sample> samples) {
    /**
     * @param t      when, in milliseconds since the epoch
     * @param served per server id, the requests it had served by then
     */
    public record Sample(long t, Map<String, Long> served) {
    }
}
