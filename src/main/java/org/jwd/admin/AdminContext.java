package org.jwd.admin;

import org.jwd.config.AdminConfig;
import java.util.concurrent.ScheduledExecutorService;

import org.jwd.runtime.ConfigWatch;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.Reloader;

/**
 * What the administration interface works on, handed over by the composition root ({@code org.jwd.boot}) in the
 * servlet context under {@link #ATTRIBUTE}.
 *
 * @param reloader  {@code null} when the dispatcher was not started from a configuration file
 * @param watch     the watch of that file; {@code null} with {@code reloader}
 * @param scheduler the shared scheduler, for the request history's samples
 */
public record AdminContext(Dispatcher dispatcher, AdminConfig config, Reloader reloader, ConfigWatch watch,
                           ScheduledExecutorService scheduler) {
    public static final String ATTRIBUTE = AdminContext.class.getName();
}
