package org.jwd.proxy;

import java.util.concurrent.Executor;

import jakarta.servlet.ServletContext;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jwd.config.ConfigParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads jwd's HTTP client runs on. Jetty's proxy servlet runs its client on the Jetty server's thread pool,
 * which it finds in a context attribute that only Jetty sets; in any other servlet container (Tomcat) its
 * {@code init} failed with "No server executor for proxy". There, this pool of its own, bounded by
 * {@code jwd.client_threads}, is put in that attribute: started with the webapp, stopped with it (after the
 * servlet has stopped its client), so that an undeployed jwd leaves no thread behind. In Jetty nothing changes.
 */
public final class ClientExecutor implements AutoCloseable {
    /** Where Jetty's {@code AbstractProxyServlet.createHttpClient} looks for the server's thread pool. */
    static final String SERVER_EXECUTOR_ATTRIBUTE = "org.eclipse.jetty.server.Executor";
    private static final Logger LOG = LoggerFactory.getLogger(ClientExecutor.class);
    /** Threads kept while idle: enough for the selector and a few exchanges, so a quiet jwd holds few. */
    private static final int MIN_THREADS = 4;

    private final ServletContext context;
    /** The pool jwd started, or {@code null} when the container lends its own. */
    private final QueuedThreadPool own;

    private ClientExecutor(ServletContext context, QueuedThreadPool own) {
        this.context = context;
        this.own = own;
    }

    /** The container's Jetty thread pool when it has one; else a pool of {@code maxThreads}, started now. */
    public static ClientExecutor provide(ServletContext context, int maxThreads) {
        if (context.getAttribute(SERVER_EXECUTOR_ATTRIBUTE) instanceof Executor) {
            return new ClientExecutor(context, null);
        }
        QueuedThreadPool pool = new QueuedThreadPool(maxThreads, Math.min(MIN_THREADS, maxThreads));
        pool.setName("jwd-client");
        try {
            pool.start();
        } catch (Exception e) {
            throw new IllegalStateException("jwd: cannot start the HTTP client's thread pool (" + pool + ")", e);
        }
        context.setAttribute(SERVER_EXECUTOR_ATTRIBUTE, pool);
        LOG.info("jwd: {} gives no Jetty thread pool: the HTTP client runs on its own, at most {} threads ({})",
                context.getServerInfo(), maxThreads, ConfigParser.CLIENT_THREADS);
        return new ClientExecutor(context, pool);
    }

    /** Whether the client runs on jwd's own pool rather than the container's. */
    boolean isOwn() {
        return own != null;
    }

    @Override
    public void close() {
        if (own == null) {
            return;
        }
        context.removeAttribute(SERVER_EXECUTOR_ATTRIBUTE);
        try {
            own.stop();
        } catch (Exception e) {
            LOG.warn("jwd: the HTTP client's thread pool did not stop cleanly", e);
        }
    }

    @Override
    public String toString() {
        return own == null ? "the container's thread pool" : "jwd's own pool of at most " + own.getMaxThreads()
                + " threads";
    }
}
