package org.jwd.loglevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

class LogLevelsTest {
    private static final long START = 1_700_000_000_000L;
    private final AtomicLong clock = new AtomicLong(START);

    /** Loggers as Logback keeps them: a level set on a logger, or none, and then its parent's. */
    private static final class Levels implements Loggers {
        final Map<String, String> set = new HashMap<>(Map.of("ROOT", "INFO", "com.tc", "WARN"));

        @Override
        public String level(String logger) {
            for (String name = logger; ; name = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : "ROOT") {
                if (set.containsKey(name)) {
                    return set.get(name);
                }
            }
        }

        @Override
        public Runnable set(String logger, String level) {
            String before = set.put(logger, level);
            return () -> {
                if (before == null) {
                    set.remove(logger);
                } else {
                    set.put(logger, before);
                }
            };
        }
    }

    /** The Terracotta server's shared value, in memory; {@code down} makes it fail as an unreachable one. */
    private static final class Shared extends SharedLevels {
        final AtomicReference<String> text = new AtomicReference<>();
        volatile boolean down;

        Shared() {
            super(null);
        }

        @Override
        Map<String, LevelOverride> load() {
            if (down) {
                throw new IllegalStateException("not connected to terracotta://127.0.0.1:9410/jwd");
            }
            return LevelOverride.decode(text.get());
        }

        @Override
        Map<String, LevelOverride> update(UnaryOperator<Map<String, LevelOverride>> change) {
            Map<String, LevelOverride> next = change.apply(load());
            text.set(LevelOverride.encode(next.values()));
            return next;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aLevelHoldsUntilItExpiresThenTheLoggerReturnsToItsConfiguredLevel() {
        Levels loggers = new Levels();
        LogLevels levels = new LogLevels(loggers, null, clock::get);

        LogLevels.Outcome outcome = levels.set("org.jwd.routing", "debug", "10m", "oncall from 10.0.0.7");

        assertThat(outcome).isEqualTo(new LogLevels.Outcome(new LevelOverride("org.jwd.routing", "DEBUG", START,
                START + Duration.ofMinutes(10).toMillis(), "oncall from 10.0.0.7"), null));
        assertThat(loggers.level("org.jwd.routing.Router")).isEqualTo("DEBUG");
        assertThat(levels.configured("org.jwd.routing")).isEqualTo("INFO");
        clock.addAndGet(Duration.ofMinutes(10).toMillis() - 1);
        levels.refresh();
        assertThat(loggers.level("org.jwd.routing")).isEqualTo("DEBUG");

        clock.addAndGet(1);
        levels.refresh();

        assertThat(loggers.level("org.jwd.routing")).isEqualTo("INFO");
        assertThat(loggers.set).doesNotContainKey("org.jwd.routing");
        assertThat(levels.overrides()).isEmpty();
    }

    @Test
    void aLevelHoldsThirtyMinutesUnlessSaidAndADayAtMost() {
        LogLevels levels = new LogLevels(new Levels(), null, clock::get);

        assertThat(levels.set("com.tc", "INFO", null, "ops").override().untilMillis())
                .isEqualTo(START + Duration.ofMinutes(30).toMillis());
        assertThat(levels.set("com.tc", "INFO", "24h", "ops").override().untilMillis())
                .isEqualTo(START + Duration.ofHours(24).toMillis());
        for (String wrong : new String[] {"25h", "10", "500ms", "0", "soon"}) {
            assertThatThrownBy(() -> levels.set("com.tc", "INFO", wrong, "ops"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("for '" + wrong + "': expected a duration between 1s and 24h, a number with a unit"
                            + " (500ms, 30s, 10m, 1h)");
        }
    }

    @Test
    void aWrongLoggerOrLevelIsRefusedNamingItAndChangesNothing() {
        Levels loggers = new Levels();
        LogLevels levels = new LogLevels(loggers, null, clock::get);

        assertThatThrownBy(() -> levels.set("org.jwd routing", "DEBUG", null, "ops"))
                .hasMessage("logger 'org.jwd routing': expected a logger's name, as org.jwd.routing,"
                        + " org.eclipse.jetty.client or ROOT");
        assertThatThrownBy(() -> levels.set("org.jwd.", "DEBUG", null, "ops")).hasMessageStartingWith("logger 'org.jwd.'");
        assertThatThrownBy(() -> levels.set("org.jwd", "verbose", null, "ops"))
                .hasMessage("level 'verbose': expected TRACE, DEBUG, INFO, WARN, ERROR, OFF");

        assertThat(levels.overrides()).isEmpty();
        assertThat(loggers.set).containsOnlyKeys("ROOT", "com.tc");
    }

    @Test
    void aSecondLevelForTheSameLoggerKeepsTheLevelToReturnToAndAResetReturnsNow() {
        Levels loggers = new Levels();
        LogLevels levels = new LogLevels(loggers, null, clock::get);
        levels.set("com.tc", "INFO", "10m", "ops");
        levels.set("com.tc", "TRACE", "1h", "oncall");

        assertThat(levels.overrides()).extracting(LevelOverride::level, LevelOverride::by)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("TRACE", "oncall"));
        assertThat(levels.configured("com.tc")).isEqualTo("WARN");

        assertThat(levels.reset("com.tc", "oncall")).isEqualTo(new LogLevels.Outcome(null, null));

        assertThat(loggers.level("com.tc")).isEqualTo("WARN");
        assertThat(levels.overrides()).isEmpty();
        assertThat(levels.reset("com.tc", "oncall")).as("nothing set any more").isNull();
    }

    @Test
    void closingReturnsEveryLoggerToItsConfiguredLevel() {
        Levels loggers = new Levels();
        LogLevels levels = new LogLevels(loggers, null, clock::get);
        levels.set("org.jwd", "DEBUG", null, "ops");
        levels.set("ROOT", "WARN", null, "ops");

        levels.close();

        assertThat(loggers.set).isEqualTo(Map.of("ROOT", "INFO", "com.tc", "WARN"));
    }

    @Test
    void aLoggingSystemThatCannotChangeLevelsSaysSo() {
        LogLevels levels = new LogLevels(Loggers.NONE, null, clock::get);

        assertThat(levels.changeable()).isFalse();
        assertThatThrownBy(() -> levels.set("org.jwd", "DEBUG", null, "ops")).isInstanceOf(IllegalStateException.class)
                .hasMessage("the logging system of this runtime cannot change levels while it runs");
        assertThat(levels.overrides()).isEmpty();
    }

    @Test
    void aLevelSetOnOneNodeReachesTheOtherAndExpiresOnBoth() {
        Shared shared = new Shared();
        Levels first = new Levels();
        Levels second = new Levels();
        LogLevels one = new LogLevels(first, shared, clock::get);
        LogLevels two = new LogLevels(second, shared, clock::get);

        one.set("org.eclipse.jetty.client", "DEBUG", "1m", "oncall from 10.0.0.7");
        two.refresh();

        assertThat(second.level("org.eclipse.jetty.client")).isEqualTo("DEBUG");
        assertThat(two.overrides()).extracting(LevelOverride::by).containsExactly("oncall from 10.0.0.7");

        clock.addAndGet(Duration.ofMinutes(1).toMillis());
        two.refresh();
        assertThat(second.level("org.eclipse.jetty.client")).isEqualTo("INFO");
        assertThat(shared.load()).as("the first node to see it expire removes it for all").isEmpty();
        one.refresh();
        assertThat(first.level("org.eclipse.jetty.client")).isEqualTo("INFO");
    }

    @Test
    void aResetOnOneNodeReachesTheOther() {
        Shared shared = new Shared();
        Levels second = new Levels();
        LogLevels one = new LogLevels(new Levels(), shared, clock::get);
        LogLevels two = new LogLevels(second, shared, clock::get);
        one.set("org.ehcache", "DEBUG", null, "ops");
        two.refresh();

        two.reset("org.ehcache", "ops");
        one.refresh();

        assertThat(one.overrides()).isEmpty();
        assertThat(second.level("org.ehcache")).isEqualTo("INFO");
    }

    @Test
    void withTheTerracottaServerUnreachableALevelHoldsOnThisNodeAndSaysWhyItIsNotShared() {
        Shared shared = new Shared();
        shared.down = true;
        Levels loggers = new Levels();
        LogLevels levels = new LogLevels(loggers, shared, clock::get);

        LogLevels.Outcome outcome = levels.set("org.jwd", "DEBUG", null, "ops");
        levels.refresh();

        assertThat(outcome.problem()).isEqualTo("not connected to terracotta://127.0.0.1:9410/jwd");
        assertThat(levels.lastFailure()).isEqualTo(outcome.problem());
        assertThat(loggers.level("org.jwd")).isEqualTo("DEBUG");
        assertThat(levels.overrides()).hasSize(1);
    }

    @Test
    void theSharedLinesSurviveAUserWithSpacesAndSkipWhatTheyCannotRead() {
        LevelOverride o = new LevelOverride("org.jwd", "DEBUG", 1, 2, "on call | team from ::1");

        assertThat(LevelOverride.decode(LevelOverride.encode(java.util.List.of(o)) + "garbage\nx=DEBUG|a|b|c\n"))
                .containsExactly(Map.entry("org.jwd", o));
    }
}
