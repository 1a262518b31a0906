package org.jwd.admin;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.jwd.config.Durations;
import org.jwd.loglevel.LevelOverride;
import org.jwd.loglevel.LogLevels;

/**
 * {@code GET api/loglevels}, and the answer to {@code POST api/loglevels}: the levels set while jwd runs, each with
 * the level its logger returns to when it expires, who set it and until when; the level in effect of the loggers an
 * operator looks for first; how long a level holds unless said, and at most; where the levels set are kept.
 *
 * @param changeable whether this runtime's logging system can change levels while it runs
 * @param kept       where the levels set are kept: this node only, or shared with a cluster's nodes
 * @param problem    why the last change could not be shared with the cluster's nodes; absent when it was
 */
public record LogLevelsView(boolean changeable, String defaultFor, String maxFor, String kept,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String problem, List<Level> levels,
                            List<Logger> loggers) {
    /**
     * A level set on {@code logger} until {@code until} (ISO-8601; {@code expiresInS} seconds from now), then
     * {@code configured} again; set by {@code by} ({@code user from address}) at {@code since}.
     */
    public record Level(String logger, String level, String configured, String by, String since, String until,
                        long expiresInS) {
    }

    /** A logger and the level in effect for it now. */
    public record Logger(String logger, String level) {
    }

    static LogLevelsView of(LogLevels levels, String problem, long nowMillis) {
        List<Level> set = levels.overrides().stream().map(o -> level(levels, o, nowMillis)).toList();
        List<Logger> known = LogLevels.WELL_KNOWN.stream().map(l -> new Logger(l, levels.level(l))).toList();
        return new LogLevelsView(levels.changeable(), Durations.format(LogLevels.DEFAULT_FOR),
                Durations.format(LogLevels.MAX_FOR), levels.where(), problem, set, known);
    }

    private static Level level(LogLevels levels, LevelOverride o, long nowMillis) {
        return new Level(o.logger(), o.level(), levels.configured(o.logger()), o.by(),
                Instant.ofEpochMilli(o.atMillis()).toString(), Instant.ofEpochMilli(o.untilMillis()).toString(),
                Math.max(0, (o.untilMillis() - nowMillis + 999) / 1000));
    }
}
