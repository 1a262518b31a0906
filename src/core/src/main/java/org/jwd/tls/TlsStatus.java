package org.jwd.tls;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What jwd presents, for the admin page and the metrics: each listener's certificates (and jwd's own towards the
 * servers), since when, and the last renewal that failed. The HTTPS listeners are Jetty's, outside the webapp, which
 * shares no class with them (two class loaders): so the server level publishes this as the system property
 * {@value #PROPERTY}, in the text {@link #encode} writes, as it publishes {@code jwd.access_points}, and the webapp
 * reads it each time it is asked ({@link #published}).
 *
 * @param presented one entry per listener
 */
public record TlsStatus(List<Presented> presented) {
    public static final String PROPERTY = "jwd.tls";

    public TlsStatus {
        presented = List.copyOf(presented);
    }

    /**
     * What one listener presents.
     *
     * @param listener     which listener: its line's key and SSL configuration ({@code icm/server_port_1
     *                     (ssl_config_1)}), or {@code wdisp/ssl_cred} towards the servers
     * @param files        the files the certificates come from
     * @param certificates the keys' certificates, in force
     * @param loadedAt     when they were read
     * @param problem      why the files, changed since, were not taken (the certificates above stay); {@code null}
     */
    public record Presented(String listener, String files, List<CertificateInfo> certificates, Instant loadedAt,
                            String problem) {
        public Presented {
            certificates = List.copyOf(certificates);
        }
    }

    /** The text of the system property: a line per listener, then one per certificate, fields by tabs. */
    public String encode() {
        StringBuilder text = new StringBuilder();
        for (Presented p : presented) {
            line(text, "L", p.listener(), p.files(), Long.toString(p.loadedAt().toEpochMilli()),
                    p.problem() == null ? "" : p.problem());
            for (CertificateInfo c : p.certificates()) {
                line(text, "C", c.alias(), c.subject(), c.issuer(), Long.toString(c.notAfter().toEpochMilli()),
                        String.join(",", c.names()));
            }
        }
        return text.toString();
    }

    /** Reads what {@link #encode} wrote; an empty text is no listener. */
    public static TlsStatus decode(String text) {
        List<Presented> presented = new ArrayList<>();
        Presented current = null;
        List<CertificateInfo> certificates = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] f = Arrays.stream(line.split("\t", -1)).map(TlsStatus::unescape).toArray(String[]::new);
            if (f[0].equals("L") && f.length == 5) {
                if (current != null) {
                    presented.add(new Presented(current.listener(), current.files(), certificates, current.loadedAt(),
                            current.problem()));
                }
                current = new Presented(f[1], f[2], List.of(), Instant.ofEpochMilli(Long.parseLong(f[3])),
                        f[4].isEmpty() ? null : f[4]);
                certificates = new ArrayList<>();
            } else if (f[0].equals("C") && f.length == 6 && current != null) {
                certificates.add(new CertificateInfo(f[1], f[2], f[3], f[5].isEmpty() ? List.of()
                        : List.of(f[5].split(",")), Instant.ofEpochMilli(Long.parseLong(f[4]))));
            }
        }
        if (current != null) {
            presented.add(new Presented(current.listener(), current.files(), certificates, current.loadedAt(),
                    current.problem()));
        }
        return new TlsStatus(presented);
    }

    /** What the server level published last; no listener in another servlet container, or before Jetty started. */
    public static TlsStatus published() {
        return decode(System.getProperty(PROPERTY, ""));
    }

    /** This status and {@code more}'s listeners after its own. */
    public TlsStatus with(List<Presented> more) {
        List<Presented> all = new ArrayList<>(presented);
        all.addAll(more);
        return new TlsStatus(all);
    }

    private static void line(StringBuilder text, String kind, String... fields) {
        text.append(kind);
        for (String field : fields) {
            text.append('\t').append(field.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"));
        }
        text.append('\n');
    }

    private static String unescape(String field) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 1 < field.length()) {
                char next = field.charAt(++i);
                out.append(next == 't' ? '\t' : next == 'n' ? '\n' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
