package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.servlet.ServletContext;

import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * Where the proxy's HTTP client gets its threads: the container's Jetty pool when it lends one (Jetty), else a
 * bounded pool of jwd's own that lives exactly as long as the webapp (Tomcat).
 */
class ClientExecutorTest {
    /** A servlet context as far as {@link ClientExecutor} reads it: attributes and the server's name. */
    private static ServletContext context(Map<String, Object> attributes) {
        return (ServletContext) Proxy.newProxyInstance(ClientExecutorTest.class.getClassLoader(),
                new Class<?>[] {ServletContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    case "removeAttribute" -> attributes.remove((String) args[0]);
                    case "getServerInfo" -> "Apache Tomcat/10.1.59";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void withoutAJettyPoolTheClientGetsABoundedPoolOfItsOwnUntilTheWebappStops() {
        Map<String, Object> attributes = new HashMap<>();
        ClientExecutor executor = ClientExecutor.provide(context(attributes), 16);

        assertThat(executor.isOwn()).isTrue();
        QueuedThreadPool pool = (QueuedThreadPool) attributes.get(ClientExecutor.SERVER_EXECUTOR_ATTRIBUTE);
        assertThat(pool.isRunning()).isTrue();
        assertThat(pool.getMaxThreads()).isEqualTo(16);

        executor.close();

        assertThat(attributes).doesNotContainKey(ClientExecutor.SERVER_EXECUTOR_ATTRIBUTE);
        assertThat(pool.isStopped()).isTrue();
    }

    @Test
    void inJettyTheClientRunsOnTheServersPoolAndNothingIsStartedOrStopped() {
        ExecutorService jettys = Executors.newSingleThreadExecutor();
        try {
            Map<String, Object> attributes = new HashMap<>(Map.of(ClientExecutor.SERVER_EXECUTOR_ATTRIBUTE, jettys));
            ClientExecutor executor = ClientExecutor.provide(context(attributes), 16);

            assertThat(executor.isOwn()).isFalse();
            executor.close();

            assertThat(attributes.get(ClientExecutor.SERVER_EXECUTOR_ATTRIBUTE)).isSameAs(jettys);
            assertThat(jettys.isShutdown()).isFalse();
        } finally {
            jettys.shutdownNow();
        }
    }

    @Test
    void anHttpClientOnTheOwnPoolExchangesRequests() throws Exception {
        Map<String, Object> attributes = new HashMap<>();
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new org.eclipse.jetty.server.Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                                  org.eclipse.jetty.util.Callback callback) {
                response.setStatus(204);
                callback.succeeded();
                return true;
            }
        });
        server.start();
        try (ClientExecutor executor = ClientExecutor.provide(context(attributes), 8)) {
            HttpClient client = new HttpClient();
            client.setExecutor((Executor) attributes.get(ClientExecutor.SERVER_EXECUTOR_ATTRIBUTE));
            client.start();
            try {
                ContentResponse response = client.GET("http://127.0.0.1:" + connector.getLocalPort() + "/");
                assertThat(response.getStatus()).isEqualTo(204);
            } finally {
                client.stop();
            }
        } finally {
            server.stop();
        }
    }
}
