package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.time.Duration;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReadinessTest {
    private Bootstrap boot;
    private Server backend;

    @AfterEach
    void stop() throws Exception {
        if (boot != null) {
            boot.close();
        }
        if (backend != null) {
            backend.stop();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private int backend() throws Exception {
        backend = new Server();
        ServerConnector connector = new ServerConnector(backend);
        connector.setHost("127.0.0.1");
        backend.addConnector(connector);
        backend.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        });
        backend.start();
        return connector.getLocalPort();
    }

    private Readiness start(int portA, int portB) throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:%d
                server.a.type=j2ee
                server.b.url=http://127.0.0.1:%d
                server.b.type=j2ee
                health.interval=1h
                health.fall=1
                """.formatted(portA, portB), "test.properties"), null);
        return boot.readiness();
    }

    @Test
    void notReadyWhileStartingThenReadyOnceAServerAnsweredItsFirstCheck() throws Exception {
        Readiness readiness = start(backend(), freePort());
        assertThat(readiness.now()).isEqualTo(new Readiness.Answer(false, "starting"));

        boot.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> readiness.now().ready());
        assertThat(readiness.now().reason()).isEqualTo("ready: 1 of 2 servers up");
        assertThat(boot.dispatcher().state().topology().server("b").state())
                .isEqualTo(org.jwd.topology.Server.State.DOWN);
    }

    @Test
    void notReadyWithNoServerUpNamingEachServersState() throws Exception {
        Readiness readiness = start(freePort(), freePort());
        boot.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> !readiness.now().reason().startsWith("starting"));

        assertThat(readiness.now()).isEqualTo(new Readiness.Answer(false,
                "no server is up (2 servers: a down, b down)"));
    }

    @Test
    void notReadyFromTheMomentTheStopBeginsWhateverComes() throws Exception {
        Readiness readiness = start(backend(), backend.getURI().getPort());
        boot.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> readiness.now().ready());

        boot.close();

        assertThat(readiness.now()).isEqualTo(new Readiness.Answer(false, "stopping"));
        assertThat(readiness.isStopping()).isTrue();
        boot = null;
    }
}
