package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.client.AbstractConnectionPool;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpDestination;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** jwd's connection pool under Jetty's HTTP client, against a real Jetty server on loopback. */
class ServerConnectionPoolTest {
    private final CountDownLatch answer = new CountDownLatch(1);
    private final AtomicInteger arrived = new AtomicInteger();
    private final AtomicInteger opened = new AtomicInteger();
    private Server server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.addEventListener(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                opened.incrementAndGet();
            }
        });
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                arrived.incrementAndGet();
                answer.await(30, TimeUnit.SECONDS);
                response.setStatus(200);
                response.write(true, null, callback);
                return true;
            }
        });
        server.start();
        client = new HttpClient();
        client.setIdleTimeout(300);
        client.setMaxConnectionsPerDestination(2);
        client.getTransport().setConnectionPoolFactory(destination -> new ServerConnectionPool(destination, 2));
        client.start();
    }

    @AfterEach
    void stop() throws Exception {
        answer.countDown();
        client.stop();
        server.stop();
    }

    private String uri() {
        return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/";
    }

    private AbstractConnectionPool pool() {
        return (AbstractConnectionPool) ((HttpDestination) client.getDestinations().get(0)).getConnectionPool();
    }

    @Test
    void requestsBeyondTheConnectionsWaitForOneAndReuseIt() throws Exception {
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            responses.add(new CompletableResponseListener(client.newRequest(uri())).send());
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> arrived.get() == 2);
        assertThat(pool().getConnectionCount()).isEqualTo(2);
        assertThat(pool().getActiveConnectionCount()).isEqualTo(2);
        assertThat(((HttpDestination) client.getDestinations().get(0)).getQueuedRequestCount()).isEqualTo(3);

        answer.countDown();
        for (CompletableFuture<ContentResponse> response : responses) {
            assertThat(response.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
        }
        assertThat(arrived.get()).isEqualTo(5);
        assertThat(opened.get()).as("connections the server accepted").isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> pool().getIdleConnectionCount() == 2);
    }

    @Test
    void connectionsClosedByTheirIdleTimeoutLeaveThePoolAndNewOnesAreMade() throws Exception {
        answer.countDown();
        assertThat(client.GET(uri()).getStatus()).isEqualTo(200);
        assertThat(pool().getConnectionCount()).isEqualTo(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> pool().getConnectionCount() == 0);

        assertThat(client.GET(uri()).getStatus()).isEqualTo(200);
        assertThat(opened.get()).isEqualTo(2);
        assertThat(pool().getConnectionCount()).isEqualTo(1);
    }

    @Test
    void stoppingTheClientClosesEveryConnection() throws Exception {
        answer.countDown();
        assertThat(client.GET(uri()).getStatus()).isEqualTo(200);
        AbstractConnectionPool pool = pool();

        client.stop();

        assertThat(pool.getConnectionCount()).isZero();
        assertThat(pool.isEmpty()).isTrue();
    }
}
