package org.jwd.launch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stop that no client behind a load balancer notices, in the place of Jetty's {@code graceful} module (module
 * {@code jwd-stop}: {@code jetty-base/etc/jwd-stop.xml}). When the server's stop begins (SIGTERM):
 * <ol>
 *   <li>for {@code jwd.stop_delay} the node serves as before, while {@code /jwd/health/ready} answers 503 (the
 *       webapp turns it at the same signal) and the load balancers in front take the node out; each HTTP/1 answer
 *       carries {@code Connection: close}, so that every keep-alive connection ends after an answer, closed by jwd
 *       when nothing is on its way on it, never under a request a balancer has just sent;</li>
 *   <li>then Jetty's graceful stop: the listeners close, the requests in flight get {@code jwd.stop_timeout} to
 *       finish, idle connections close.</li>
 * </ol>
 * Unlike Jetty's {@code GracefulHandler}, a request that comes on an open connection after the listeners closed is
 * served, not answered 503: a balancer cannot send a POST again elsewhere, and the stop waits for it as for any other
 * (each such answer closes its connection, so the stop still ends).
 */
public final class GracefulStop extends Handler.Wrapper implements Graceful, LifeCycle.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(GracefulStop.class);

    private final long delayMillis;
    private final AtomicLong inFlight = new AtomicLong();
    private final Shutdown shutdown = new Shutdown(this) {
        @Override
        public boolean isShutdownDone() {
            return inFlight.get() == 0;
        }
    };
    private volatile boolean stopping;
    private Long shutdownIdleTimeout;

    /** @param delayMillis {@code jwd.stop_delay}, as {@code bin/jwd} passes it to Jetty */
    public GracefulStop(long delayMillis) {
        if (delayMillis < 0) {
            throw new IllegalArgumentException("jwd.stop_delay: " + delayMillis + " ms: expected 0 or more");
        }
        this.delayMillis = delayMillis;
    }

    /**
     * How long a connection may stay idle once the listeners have closed ({@code jetty.graceful.shutdownIdleTimeout},
     * as for Jetty's own module; Jetty's 1 s unless set).
     */
    public void setShutdownIdleTimeout(long millis) {
        shutdownIdleTimeout = millis;
    }

    /** Whether the stop has begun: answers close their connections. */
    public boolean isStopping() {
        return stopping;
    }

    @Override
    protected void doStart() throws Exception {
        shutdown.cancel();
        stopping = false;
        if (shutdownIdleTimeout != null) {
            for (Connector connector : getServer().getConnectors()) {
                if (connector instanceof AbstractConnector abstractConnector) {
                    abstractConnector.setShutdownIdleTimeout(shutdownIdleTimeout);
                }
            }
        }
        super.doStart();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        if (next == null || !isStarted()) {
            return false;
        }
        if (stopping && isHttp1(request)) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        Counted counted = new Counted(callback);
        boolean handled = false;
        try {
            handled = next.handle(request, response, counted);
            return handled;
        } finally {
            if (!handled) {
                counted.ended();
            }
        }
    }

    private static boolean isHttp1(Request request) {
        HttpVersion version = request.getConnectionMetaData().getHttpVersion();
        return version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_1_0;
    }

    /**
     * The server's stop has begun: answers close their connections from now on, and the stop waits here for
     * {@code jwd.stop_delay} before Jetty closes the listeners.
     */
    @Override
    public void lifeCycleStopping(LifeCycle event) {
        if (!(event instanceof Server)) {
            return;
        }
        stopping = true;
        if (delayMillis == 0) {
            return;
        }
        LOG.info("jwd: stopping: serving on for jwd.stop_delay ({} ms) while /jwd/health/ready answers 503, then "
                + "closing the listeners", delayMillis);
        try {
            TimeUnit.MILLISECONDS.sleep(delayMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public CompletableFuture<Void> shutdown() {
        stopping = true;
        return shutdown.shutdown();
    }

    @Override
    public boolean isShutdown() {
        return shutdown.isShutdown();
    }

    /** Requests in flight, which the stop waits for. */
    public long inFlight() {
        return inFlight.get();
    }

    /** Counts a request from its start until its answer is complete, or failed. */
    private final class Counted extends Callback.Nested {
        private final AtomicBoolean ended = new AtomicBoolean();

        Counted(Callback callback) {
            super(callback);
            inFlight.incrementAndGet();
        }

        void ended() {
            if (ended.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
                if (isShutdown()) {
                    shutdown.check();
                }
            }
        }

        @Override
        public void succeeded() {
            try {
                super.succeeded();
            } finally {
                ended();
            }
        }

        @Override
        public void failed(Throwable cause) {
            try {
                super.failed(cause);
            } finally {
                ended();
            }
        }
    }
}
