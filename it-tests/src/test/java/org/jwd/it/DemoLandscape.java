package org.jwd.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;

/**
 * The landscape of {@code bin/jwd demo}, as its configuration ({@code config/demo-systems.properties}) and action file
 * ({@code config/demo-actions.txt}) describe it, behind a real jwd: the demo's servers with the demo's options (the
 * portal's four iViews, the iView delay), on ephemeral ports instead of the demo's fixed ones. The second listener
 * and the HTTPS keystore are left out; everything else is the demo's as written.
 */
final class DemoLandscape implements AutoCloseable {
    /** The demo's servers and the ports {@code config/demo-systems.properties} gives them. */
    private static final Map<String, Integer> SERVERS = Map.of("j2ee1", 8101, "j2ee2", 8102, "j2ee3", 8103,
            "abap1", 8111, "erpj2ee1", 8121, "ntb1", 8131, "ntb2", 8132, "ntb3", 8133);
    /** The demo's portal iViews and iView delay ({@code org.jwd.demo.Demo}). */
    private static final String[] IVIEWS = {"/irj/iview/a", "/irj/iview/b", "/erp/iview/c", "/sap/bc/iview/d"};
    static final long IVIEW_DELAY_MILLIS = 300;

    private final List<DemoBackend> backends;
    private final JwdProcess jwd;

    private DemoLandscape(List<DemoBackend> backends, JwdProcess jwd) {
        this.backends = backends;
        this.jwd = jwd;
    }

    /** The demo's landscape, its configuration written to {@code dir}. */
    static DemoLandscape start(Path dir) throws IOException {
        List<DemoBackend> backends = new ArrayList<>();
        try {
            Path config = configuration(dir, backends);
            return new DemoLandscape(List.copyOf(backends), JwdProcess.startWith(config, Map.of()));
        } catch (IOException | RuntimeException | Error e) {
            backends.forEach(DemoBackend::close);
            throw e;
        }
    }

    /** The demo's configuration with its servers on ephemeral ports, beside a copy of its action file. */
    private static Path configuration(Path dir, List<DemoBackend> backends) throws IOException {
        Path config = JwdProcess.projectDir().resolve("config");
        String text = Files.readString(config.resolve("demo-systems.properties"));
        for (Map.Entry<String, Integer> server : SERVERS.entrySet()) {
            DemoBackend.Options options = DemoBackend.Options.j2ee(server.getKey()).withIviews(IVIEWS)
                    .withIviewDelayMillis(IVIEW_DELAY_MILLIS);
            if (server.getKey().equals("abap1")) {
                options = options.withType(DemoBackend.ServerType.ABAP).withName("erp_ERP_00");
            }
            DemoBackend backend = DemoBackend.start(options);
            backends.add(backend);
            text = text.replace("http://127.0.0.1:" + server.getValue(), backend.url());
        }
        List<String> kept = text.lines()
                .filter(line -> !line.startsWith("wdisp/system_2=") && !line.startsWith("jwd.ssl_keystore"))
                .map(line -> line.replace("SRCSRV=*:8080, ", ""))
                .toList();
        Files.copy(config.resolve("demo-actions.txt"), dir.resolve("demo-actions.txt"));
        return Files.write(dir.resolve("demo-systems.properties"), kept);
    }

    JwdProcess jwd() {
        return jwd;
    }

    /** {@code http://127.0.0.1:<jwd's port><path>} */
    String url(String path) {
        return jwd.uri(path).toString();
    }

    /** Every server's sessions and answers per path, for failure messages. */
    String report() {
        StringBuilder sb = new StringBuilder("servers behind ").append(jwd).append(':');
        for (DemoBackend b : backends) {
            sb.append("\n  ").append(b.id()).append(": ").append(b.sessionCount()).append(" sessions; answered ")
                    .append(b.requestCounts());
        }
        return sb.toString();
    }

    @Override
    public void close() {
        try {
            jwd.close();
        } finally {
            backends.forEach(DemoBackend::close);
        }
    }
}
