package org.jwd.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.jwd.demo.ErpLandscape;

/**
 * The landscape of {@code bin/jwd demo}, as its configuration ({@code config/demo-systems.properties}) and action file
 * ({@code config/demo-actions.txt}) describe it, behind a real jwd: the demo's servers with the demo's options (the
 * portal's four iViews, the iView delay), and ERP as the demo runs it ({@link ErpLandscape}: its servers listed by the
 * message-server stand-in), on ephemeral ports instead of the demo's fixed ones. The second listener and the HTTPS
 * keystore are left out; everything else is the demo's as written.
 */
final class DemoLandscape implements AutoCloseable {
    /** The demo's servers of the file and the ports {@code config/demo-systems.properties} gives them. */
    private static final Map<String, Integer> SERVERS = Map.of("j2ee1", 8101, "j2ee2", 8102, "j2ee3", 8103,
            "ntb1", 8131, "ntb2", 8132, "ntb3", 8133);
    /** The stand-in's port as the demo's configuration names it. */
    private static final String MSPORT = "MSPORT=" + ErpLandscape.Ports.DEMO.standIn();
    /** The demo's portal iViews and iView delay ({@code org.jwd.demo.Demo}). */
    private static final String[] IVIEWS = {"/irj/iview/a", "/irj/iview/b", "/erp/iview/c", "/sap/bc/iview/d"};
    static final long IVIEW_DELAY_MILLIS = 300;

    private final List<DemoBackend> backends;
    private final ErpLandscape erp;
    private final JwdProcess jwd;

    private DemoLandscape(List<DemoBackend> backends, ErpLandscape erp, JwdProcess jwd) {
        this.backends = backends;
        this.erp = erp;
        this.jwd = jwd;
    }

    /** The demo's landscape, its configuration written to {@code dir}. */
    static DemoLandscape start(Path dir) throws IOException {
        List<DemoBackend> backends = new ArrayList<>();
        ErpLandscape erp = null;
        try {
            erp = ErpLandscape.start(ErpLandscape.Ports.EPHEMERAL, DemoLandscape::dressed);
            Path config = configuration(dir, backends, erp);
            JwdProcess jwd = JwdProcess.startWith(config, Map.of());
            erp.dispatcher(jwd.uri());
            return new DemoLandscape(List.copyOf(backends), erp, jwd);
        } catch (IOException | RuntimeException | Error e) {
            backends.forEach(DemoBackend::close);
            if (erp != null) {
                erp.close();
            }
            throw e;
        }
    }

    /** A server's options as the demo gives them ({@code org.jwd.demo.Demo}). */
    private static DemoBackend.Options dressed(DemoBackend.Options options) {
        return options.withIviews(IVIEWS).withIviewDelayMillis(IVIEW_DELAY_MILLIS).withRacePage(true);
    }

    /** The demo's configuration with its servers on ephemeral ports, beside a copy of its action file. */
    private static Path configuration(Path dir, List<DemoBackend> backends, ErpLandscape erp) throws IOException {
        Path config = JwdProcess.projectDir().resolve("config");
        String text = Files.readString(config.resolve("demo-systems.properties"));
        for (Map.Entry<String, Integer> server : SERVERS.entrySet()) {
            DemoBackend backend = DemoBackend.start(dressed(DemoBackend.Options.j2ee(server.getKey())));
            backends.add(backend);
            text = text.replace("http://127.0.0.1:" + server.getValue(), backend.url());
        }
        if (!text.contains(MSPORT)) {
            throw new IllegalStateException("config/demo-systems.properties names no " + MSPORT);
        }
        text = text.replace(MSPORT, "MSPORT=" + erp.standIn().port());
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

    /** ERP as the demo runs it: the stand-in, its page, its servers. */
    ErpLandscape erp() {
        return erp;
    }

    /** {@code http://127.0.0.1:<jwd's port><path>} */
    String url(String path) {
        return jwd.uri(path).toString();
    }

    /** Every server's sessions and answers per path, for failure messages. */
    String report() {
        StringBuilder sb = new StringBuilder("servers behind ").append(jwd).append(':');
        List<DemoBackend> all = new ArrayList<>(backends);
        all.addAll(erp.backends());
        for (DemoBackend b : all) {
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
            erp.close();
        }
    }
}
