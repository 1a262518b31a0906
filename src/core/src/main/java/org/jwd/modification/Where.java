package org.jwd.modification;

/**
 * A line of an action file: where a rule or condition was written, for every message and for the rules shown on
 * the admin page.
 *
 * @param file how the configuration names the file
 * @param line its number, from 1
 * @param text the line as written, without surrounding blanks
 */
public record Where(String file, int line, String text) {
    /** {@code actions.txt:7} */
    public String place() {
        return file + ":" + line;
    }

    @Override
    public String toString() {
        return place() + ": " + text;
    }
}
