package org.jwd.discovery;

/**
 * A body that is not the format its parser reads at all (an HTML page, a first line that is no {@code version}):
 * the parsers' one exception, so that a refresh keeps the last good view and says why.
 */
public final class InfoFormatException extends Exception {
    public InfoFormatException(String message) {
        super(message);
    }
}
