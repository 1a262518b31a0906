package org.jwd.modification;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jwd.config.ConfigException;
import org.jwd.routing.BadPathException;
import org.jwd.routing.PathNormalizer;

/** Requests and handlers for the modification handler's tests, and the one way their outcome is written down. */
final class Requests {
    /** The client's address and port, jwd's, and jwd's access points, as every request here has them. */
    static final String CLIENT = "10.0.0.7";
    static final String LOCAL = "192.0.2.1";
    static final String ACCESS_POINTS = "http:8080,https:8443";

    private Requests() {
    }

    /**
     * A request to {@code target} ({@code /path?query}) over HTTP on port 8080.
     *
     * @param headers {@code name: value} lines
     */
    static RequestView request(String method, String target, String... headers) {
        return request(method, target, false, headers);
    }

    static RequestView request(String method, String target, boolean secure, String... headers) {
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        Map<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String h : headers) {
            int colon = h.indexOf(':');
            byName.putIfAbsent(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
        }
        try {
            return new RequestView(method, rawPath, q < 0 ? null : target.substring(q + 1),
                    PathNormalizer.normalize(rawPath), secure, CLIENT, 50123, LOCAL, secure ? 8443 : 8080,
                    byName::get, () -> ACCESS_POINTS);
        } catch (BadPathException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** One handler, {@code icm/HTTP/mod_0 = PREFIX=/, FILE=actions.txt}, with {@code rules} as its file. */
    static ModificationHandlers handler(Path dir, String rules) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("actions.txt"), rules);
        return ModificationHandlers.parse(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=actions.txt"), dir);
    }

    /** The rules' file parsed on its own. */
    static ActionFile file(String rules) throws ConfigException {
        return ActionFileParser.parse(rules, "actions.txt");
    }

    /**
     * What a modification did, in one line: {@code 403}, {@code 302 /x}, or {@code -> /path?query} followed by each
     * changed request header ({@code name=value}, {@code -name} removed), each response edit
     * ({@code response:set name=value}) and the named system ({@code system=ERP}).
     */
    static String outcome(Modification m, RequestView request) {
        if (m.answered()) {
            return m.status() + (m.location() == null ? "" : " " + m.location());
        }
        List<String> parts = new ArrayList<>();
        String path = m.rewritten() ? m.rawPath() : request.rawPath();
        String query = m.rewritten() ? m.query() : request.query();
        parts.add("-> " + path + (query == null ? "" : "?" + query));
        for (HeaderEdit e : m.requestHeaders()) {
            parts.add(e.value() == null ? "-" + e.name() : e.name() + "=" + e.value());
        }
        for (HeaderEdit e : m.responseHeaders()) {
            parts.add("response:" + e.kind().name().toLowerCase(java.util.Locale.ROOT) + " " + e.name()
                    + (e.value() == null ? "" : "=" + e.value()));
        }
        if (m.targetSid() != null) {
            parts.add("system=" + m.targetSid());
        }
        return String.join(" ", parts);
    }
}
