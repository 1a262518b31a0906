package org.jwd.config;

import java.util.List;

/**
 * The configuration cannot be used. Carries one message per problem, each naming the key, the bad value
 * and what is expected, so an operator fixes everything in one round instead of one error per restart.
 */
public final class ConfigException extends Exception {
    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(String.join(System.lineSeparator(), problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigException(String problem) {
        this(List.of(problem));
    }

    public List<String> problems() {
        return problems;
    }
}
