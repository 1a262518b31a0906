package org.jwd.modification;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pattern of an action file, compiled once, with a matcher per thread that is reset for each request rather than
 * made anew: a matcher carries its group arrays, and a typical file's half a dozen patterns would otherwise be most
 * of what applying it allocates.
 */
final class Regex {
    private final Pattern pattern;
    private final ThreadLocal<Matcher> matchers;

    Regex(Pattern pattern) {
        this.pattern = pattern;
        this.matchers = ThreadLocal.withInitial(() -> pattern.matcher(""));
    }

    /** This thread's matcher, reset to {@code input}: valid until this thread asks this regex again. */
    Matcher matcher(CharSequence input) {
        return matchers.get().reset(input);
    }

    /** How many groups the pattern has. */
    int groupCount() {
        return pattern.matcher("").groupCount();
    }

    String pattern() {
        return pattern.pattern();
    }

    @Override
    public String toString() {
        return pattern.pattern();
    }
}
