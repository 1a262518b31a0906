package org.jwd.admin;

import java.util.concurrent.ScheduledExecutorService;

import org.jwd.config.AdminConfig;
import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.ConfigWatch;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.Readiness;
import org.jwd.runtime.Reloader;
import org.jwd.tls.ClientTls;

/**
 * What the administration interface works on, taken from the composition root ({@link Bootstrap}) and handed
 * over in the servlet context under {@link #ATTRIBUTE}.
 *
 * @param reloader  {@code null} when the dispatcher was not started from a configuration file
 * @param watch     the watch of that file; {@code null} with {@code reloader}
 * @param scheduler the shared scheduler, for the request history's samples
 * @param readiness what {@code /jwd/health/ready} answers
 * @param clientTls jwd's TLS towards the servers, and what jwd presents
 */
public record AdminContext(Dispatcher dispatcher, AdminConfig config, Reloader reloader, ConfigWatch watch,
                           ScheduledExecutorService scheduler, Readiness readiness, ClientTls clientTls) {
    public static final String ATTRIBUTE = AdminContext.class.getName();

    /** The parts {@code bootstrap} built. */
    public static AdminContext of(Bootstrap bootstrap) {
        return new AdminContext(bootstrap.dispatcher(), bootstrap.admin(), bootstrap.reloader(), bootstrap.watch(),
                bootstrap.scheduler(), bootstrap.readiness(), bootstrap.clientTls());
    }
}
