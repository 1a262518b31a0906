package org.jwd.boot;

import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.jetty.logging.JettyLevel;
import org.eclipse.jetty.logging.JettyLoggerFactory;
import org.jwd.loglevel.Loggers;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * The logging system jwd's classes log through, as the {@link Loggers} whose levels an operator sets while jwd runs:
 * in jwd's distribution the server's Logback, which the WAR shares ({@code jetty-base/webapps/jwd.xml}), so that one
 * level holds for jwd's, Jetty's, Ehcache's and Terracotta's classes alike; in another servlet container Jetty's SLF4J
 * implementation that the WAR brings; {@link Loggers#NONE} for any other.
 */
public final class LoggingSystems {
    private static final String LOGBACK = "ch.qos.logback.classic.LoggerContext";

    private LoggingSystems() {
    }

    /** The loggers of the logging system SLF4J is bound to here. */
    public static Loggers detect() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory.getClass().getName().equals(LOGBACK)) {
            // Logback's classes are loaded here only: a WAR without Logback never needs them
            return new Logback(factory);
        }
        return factory instanceof JettyLoggerFactory jetty ? new Jetty(jetty) : Loggers.NONE;
    }

    /** Logback's loggers: a logger without a level of its own takes its parent's, whatever it is now. */
    private static final class Logback implements Loggers {
        private final ch.qos.logback.classic.LoggerContext context;

        Logback(ILoggerFactory factory) {
            this.context = (ch.qos.logback.classic.LoggerContext) factory;
        }

        @Override
        public String level(String logger) {
            return context.getLogger(logger).getEffectiveLevel().toString();
        }

        @Override
        public Runnable set(String logger, String level) {
            ch.qos.logback.classic.Logger target = context.getLogger(logger);
            ch.qos.logback.classic.Level before = target.getLevel();
            target.setLevel(ch.qos.logback.classic.Level.toLevel(level));
            return () -> target.setLevel(before);
        }

        @Override
        public String toString() {
            return "Logback";
        }
    }

    /**
     * Jetty's SLF4J implementation: a level set on a logger is copied to each of its descendants made so far, so the
     * levels of them all are kept to be put back, the logger's first.
     */
    private static final class Jetty implements Loggers {
        private final JettyLoggerFactory factory;

        Jetty(JettyLoggerFactory factory) {
            this.factory = factory;
        }

        @Override
        public String level(String logger) {
            return factory.getJettyLogger(logger).getLevel().name();
        }

        @Override
        public Runnable set(String logger, String level) {
            Map<String, JettyLevel> before = new TreeMap<>(Comparator.comparingInt(String::length)
                    .thenComparing(Comparator.naturalOrder()));
            before.put(logger, factory.getJettyLogger(logger).getLevel());
            for (String name : factory.getLoggerNames()) {
                if (logger.equals("ROOT") || name.startsWith(logger + ".")) {
                    before.put(name, factory.getJettyLogger(name).getLevel());
                }
            }
            factory.getJettyLogger(logger).setLevel(JettyLevel.valueOf(level));
            return () -> before.forEach((name, was) -> factory.getJettyLogger(name).setLevel(was));
        }

        @Override
        public String toString() {
            return "Jetty's SLF4J implementation";
        }
    }
}
