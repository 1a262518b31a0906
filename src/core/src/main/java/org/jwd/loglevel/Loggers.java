package org.jwd.loglevel;

/**
 * The logging system's loggers, as far as {@link LogLevels} changes them: read a logger's level, set it, and put it
 * back. The runtime supplies the one it runs on (Logback in jwd's distribution, Jetty's SLF4J implementation in
 * another servlet container); {@link #NONE} where levels cannot be changed.
 */
public interface Loggers {
    /** Where levels cannot be changed while running (a logging system jwd does not know). */
    Loggers NONE = new Loggers() {
        @Override
        public String level(String logger) {
            return null;
        }

        @Override
        public Runnable set(String logger, String level) {
            throw new IllegalStateException("the logging system of this runtime cannot change levels while it runs");
        }

        @Override
        public String toString() {
            return "no logging system that changes levels";
        }
    };

    /** The level in effect for {@code logger} ({@code INFO}, ...), or {@code null} when it cannot be read. */
    String level(String logger);

    /**
     * Sets {@code logger}'s level, and so its descendants' unless they have their own, as the logging system's
     * configuration file would.
     *
     * @param level {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN}, {@code ERROR} or {@code OFF}
     * @return what puts the logger (and its descendants) back as they were before
     * @throws IllegalStateException when levels cannot be changed here
     */
    Runnable set(String logger, String level);
}
