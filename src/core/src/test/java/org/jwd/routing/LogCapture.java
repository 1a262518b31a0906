package org.jwd.routing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.logging.JettyLogger;
import org.eclipse.jetty.logging.StdErrAppender;
import org.slf4j.LoggerFactory;

/** Captures what the test binding (jetty-slf4j-impl) logs, while open. Tests run one at a time here. */
public final class LogCapture implements AutoCloseable {
    private final StdErrAppender appender;
    private final PrintStream original;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    public LogCapture(Class<?> loggerOf) {
        appender = (StdErrAppender) ((JettyLogger) LoggerFactory.getLogger(loggerOf)).getAppender();
        original = appender.getStream();
        appender.setStream(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }

    public String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        appender.setStream(original);
    }
}
