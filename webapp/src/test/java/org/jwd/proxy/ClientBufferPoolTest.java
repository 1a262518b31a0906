package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * The proxy client's buffers: each server connection reading a response holds one (HttpClient's response buffer),
 * and with jwd's default of 256 connections to each of two servers, 512 may be read at once.
 */
class ClientBufferPoolTest {
    private static final int READING_AT_ONCE = 512;
    private static final int RESPONSE_BUFFER = 16_384;

    private static List<RetainableByteBuffer> acquire(ArrayByteBufferPool pool) {
        List<RetainableByteBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < READING_AT_ONCE; i++) {
            buffers.add(pool.acquire(RESPONSE_BUFFER, true));
        }
        return buffers;
    }

    @Test
    void theBuffersOfEveryConnectionReadingAtOnceAreKeptForTheNextResponses() {
        ArrayByteBufferPool pool = (ArrayByteBufferPool) ProxyClient.pooled(new ClientConnector()).getByteBufferPool();

        acquire(pool).forEach(RetainableByteBuffer::release);
        assertThat(pool.getAvailableDirectByteBufferCount()).isEqualTo(READING_AT_ONCE);

        List<RetainableByteBuffer> again = acquire(pool);
        // the second round of responses allocated nothing: every buffer came from the pool
        assertThat(pool.getDirectByteBufferCount()).isEqualTo(READING_AT_ONCE);
        assertThat(pool.getAvailableDirectByteBufferCount()).isZero();
        again.forEach(RetainableByteBuffer::release);
    }

    /** Why jwd brings its own: the pool HttpClient makes keeps half its threads' worth, and allocates the rest anew. */
    @Test
    void theClientsOwnPoolKeepsHalfItsThreadsWorthOfBuffers() throws Exception {
        HttpClient client = new HttpClient();
        client.setExecutor(new QueuedThreadPool(200));
        client.start();
        try {
            ArrayByteBufferPool pool = (ArrayByteBufferPool) client.getByteBufferPool();

            acquire(pool).forEach(RetainableByteBuffer::release);

            assertThat(pool.getAvailableDirectByteBufferCount()).isEqualTo(100);
        } finally {
            client.stop();
        }
    }
}
