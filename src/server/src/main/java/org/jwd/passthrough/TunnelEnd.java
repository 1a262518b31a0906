package org.jwd.passthrough;

import java.io.IOException;
import java.util.concurrent.Executor;

import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.IteratingCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One side of an end-to-end TLS connection: what its end point receives is written, unchanged, to the other
 * side's end point. As Jetty's own {@code ConnectHandler} tunnels: non-blocking, one pooled buffer in flight
 * per direction, and the next read only once the last write has completed, so a slow reader slows its writer
 * down instead of filling memory. An end of input is passed on as a half-close (shutdown of the other side's
 * output); a failure closes both sides.
 */
abstract class TunnelEnd extends AbstractConnection {
    private static final Logger LOG = LoggerFactory.getLogger(TunnelEnd.class);

    private final ByteBufferPool bufferPool;
    private final Pipe pipe = new Pipe();
    /** set once, before {@link #pipeTo} registers interest in reading */
    private volatile TunnelEnd peer;

    TunnelEnd(EndPoint endPoint, Executor executor, ByteBufferPool bufferPool) {
        super(endPoint, executor);
        this.bufferPool = bufferPool;
    }

    /** Starts copying what this side receives to {@code other}. */
    void pipeTo(TunnelEnd other) {
        this.peer = other;
        fillInterested();
    }

    @Override
    public void onFillable() {
        pipe.iterate();
    }

    /** Closes this side and the other, as after a reset. */
    void closeBoth(Throwable failure) {
        getEndPoint().close(failure);
        TunnelEnd other = peer;
        if (other != null) {
            other.getEndPoint().close(failure);
        }
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        TunnelEnd other = peer;
        if (other != null) {
            // Both directions have ended (or failed): nothing more can pass between the two.
            other.getEndPoint().close(cause);
        }
    }

    @Override
    public String toConnectionString() {
        EndPoint endPoint = getEndPoint();
        return String.format("%s@%x[%s<->%s]", getClass().getSimpleName(), hashCode(),
                endPoint.getLocalSocketAddress(), endPoint.getRemoteSocketAddress());
    }

    /** Read, write, and read again once the write is done; {@code fillInterested(this)} when nothing is there. */
    private final class Pipe extends IteratingCallback {
        private RetainableByteBuffer buffer;

        @Override
        protected Action process() {
            buffer = bufferPool.acquire(getInputBufferSize(), true);
            try {
                int filled = getEndPoint().fill(buffer.getByteBuffer());
                if (filled > 0) {
                    peer.getEndPoint().write(this, buffer.getByteBuffer());
                    return Action.SCHEDULED;
                }
                release();
                if (filled == 0) {
                    fillInterested(this);
                    return Action.SCHEDULED;
                }
                peer.getEndPoint().shutdownOutput();
                return Action.SUCCEEDED;
            } catch (IOException x) {
                LOG.debug("cannot read {}", TunnelEnd.this, x);
                release();
                closeBoth(x);
                return Action.SUCCEEDED;
            }
        }

        @Override
        protected void onSuccess() {
            release();
        }

        @Override
        protected void onFailure(Throwable x) {
            LOG.debug("cannot pass bytes on from {}", TunnelEnd.this, x);
            closeBoth(x);
        }

        @Override
        protected void onCompleteFailure(Throwable x) {
            release();
        }

        private void release() {
            if (buffer != null) {
                buffer.release();
                buffer = null;
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
