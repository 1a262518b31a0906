package org.jwd.boot;

import org.jwd.runtime.Reloader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import sun.misc.Signal;

/**
 * SIGHUP reloads the configuration, as it does nginx's and HAProxy's, so that a service manager's reload
 * ({@code systemctl reload jwd}: {@code ExecReload=kill -HUP $MAINPID}) is jwd's. Only where the launcher asks for it
 * ({@code -Djwd.sighup=reload}): a JVM that is not told otherwise takes SIGHUP as a stop, and a servlet container
 * that jwd is only one webapp of keeps its own.
 */
final class ReloadSignal {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadSignal.class);
    static final String PROPERTY = "jwd.sighup";

    private ReloadSignal() {
    }

    /** Installs the handler when {@value #PROPERTY} is {@code reload} and there is a file to reload. */
    static void install(Reloader reloader) {
        if (reloader == null || !"reload".equals(System.getProperty(PROPERTY))) {
            return;
        }
        Signal.handle(new Signal("HUP"), signal -> {
            Reloader.Result result = reloader.reload("SIGHUP");
            LOG.info("jwd: SIGHUP: configuration {} {}", reloader.file(), result.outcome());
        });
    }
}
