package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The training load against a plain JDK HTTP server on 127.0.0.1: sticky clients, every answer counted. */
@Timeout(60)
class TrainingLoadTest {
    private HttpServer server;
    private final Set<String> cookies = ConcurrentHashMap.newKeySet();
    private final AtomicInteger answered = new AtomicInteger();
    private volatile int status = 200;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            cookies.add(exchange.getRequestHeaders().getFirst("Cookie"));
            answered.incrementAndGet();
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/irj/portal");
    }

    @Test
    void sendsRequestsOfManySessionsAndCountsEveryAnswer() throws Exception {
        TrainingLoad.Result result = TrainingLoad.run(url(), Duration.ofMillis(500), 4);

        assertThat(result.requests()).isPositive().isEqualTo(answered.get());
        assertThat(result.errors()).isZero();
        assertThat(cookies).allMatch(c -> c.matches("JSESSIONID=TRAINING\\d+\\.b1"));
        assertThat(cookies).as("the sessions of the load").hasSizeGreaterThan(1);
        assertThat(result.toString()).matches("training: " + result.requests() + " requests in \\d+ s \\(0 not 200\\)");
    }

    @Test
    void eachClientSendsOneRequestEvenWhenItStartsAfterTheEnd() throws Exception {
        // a load over before its clients start, as a busy machine may start their threads
        TrainingLoad.Result result = TrainingLoad.run(url(), Duration.ZERO, 3);

        assertThat(result.requests()).isEqualTo(3).isEqualTo(answered.get());
        assertThat(cookies).hasSize(3);
    }

    @Test
    void countsAnswersOtherThan200AsErrors() throws Exception {
        status = 503;

        TrainingLoad.Result result = TrainingLoad.run(url(), Duration.ofMillis(200), 2);

        assertThat(result.errors()).isEqualTo(result.requests()).isPositive();
    }
}
