package org.jwd.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What jwd makes of the lines of an SAP Web Dispatcher profile, so that a profile pastes: for each line of the file,
 * applied (a section reads it in SAP's meaning, or it is jwd's own), mapped to a jwd key (SAP's value in that key's
 * place), or read and not used (the instance's lines, {@code SAPSYSTEMNAME}, {@code DIR_*}, {@code Start_Program_*},
 * the ICM's threads and memory pipes, ...: listed once at start, with why). The keys of features SAP has and jwd
 * does not, and security settings jwd cannot honour, are refused, each with what to write instead. Read last, over
 * the keys no section read; {@code bin/jwd check} prints {@link #lines()} as its migration report.
 *
 * @param lines every line of the file, in its order
 */
public record SapProfile(List<Line> lines) {
    /** What jwd does with a line. */
    public enum Kind {
        APPLIED("applied"), MAPPED("mapped to"), NOT_USED("read, not used");

        private final String words;

        Kind(String words) {
            this.words = words;
        }
    }

    /**
     * @param line   the line the key is on, or 0 when not known
     * @param detail how it is applied, the jwd key it is mapped to, or why it is not used; empty when nothing to say
     */
    public record Line(String key, int line, Kind kind, String detail) {
        /** {@code icm/conn_timeout: mapped to jwd.connect_timeout (...)}, {@code DIR_CT_RUN: read, not used - why} */
        @Override
        public String toString() {
            return key + ": " + kind.words + (detail.isEmpty() ? "" : kind == Kind.MAPPED ? " " + detail
                    : kind == Kind.NOT_USED ? " - " + detail : " (" + detail + ")");
        }
    }

    private static final String HTTP_PORT = "jwd asks the message server over HTTP, as SAP's Web Dispatcher does:"
            + " write ms/http_port = <the message server's HTTP port> (ms/server_port_<xx> of its profile) beside"
            + " rdisp/mshost, or ms/https_port for its HTTPS port";
    private static final String HOST_NAMES = "jwd checks each server's certificate against the host name it"
            + " connects to; write wdisp/ssl_verify_hostname = false to turn that check off";
    /** SAP keys jwd does not support, and what to write instead. */
    private static final Map<String, String> INSTEAD = Map.ofEntries(
            Map.entry("rdisp/msserv", HTTP_PORT),
            Map.entry("rdisp/msserv_internal", HTTP_PORT),
            Map.entry("wdisp/ssl_ignore_host_mismatch", HOST_NAMES),
            Map.entry("wdisp/ssl_certhost", HOST_NAMES));
    /** Indexed SAP keys jwd does not support, by their prefix. */
    private static final Map<String, String> INSTEAD_INDEXED = Map.of(
            "icm/HTTP/redirect_", "a redirect is a RegRedirectUrl line of an action file (icm/HTTP/mod_<xx>)",
            "icm/HTTP/file_access_", "jwd serves no files: let a server behind it serve them",
            "icm/HTTP/server_cache_", "jwd keeps no cache of answers",
            "icm/trusted_reverse_proxy_", "a security setting: jwd believes forwarded addresses, protocols and"
                    + " certificates only from jwd.trusted_proxies: write jwd.trusted_proxies = <the proxy's"
                    + " addresses>");

    public static final SapProfile NONE = new SapProfile(List.of());

    public SapProfile {
        lines = List.copyOf(lines);
    }

    /** The keys of the lines read and not used, in the file's order. */
    public List<String> notUsed() {
        return lines.stream().filter(l -> l.kind() == Kind.NOT_USED).map(Line::key).toList();
    }

    /** The start's one block: {@code read, not used:} and a line {@code key - why} each; empty without such lines. */
    public String notUsedBlock() {
        List<String> block = lines.stream().filter(l -> l.kind() == Kind.NOT_USED)
                .map(l -> "  " + l.key() + " - " + l.detail()).toList();
        return block.isEmpty() ? "" : "SAP profile lines read, not used:\n" + String.join("\n", block);
    }

    /** Reads the keys no section read: an instance's lines are read and not used, unsupported ones refused. */
    public static SapProfile read(KeyReader keys) {
        Set<String> notUsed = new java.util.HashSet<>();
        for (String key : keys.unread()) {
            String instead = insteadOf(key);
            if (instead != null) {
                keys.readNotUsed(key);
                keys.problemText(key, key + " = '" + keys.values().get(key) + "': SAP's, not supported by jwd: "
                        + instead);
            } else if (SapKeys.notUsed(key) != null) {
                // its value is not even looked at: its references ($(DIR_LIBRARY)...) need not resolve
                keys.readNotUsed(key);
                notUsed.add(key);
            }
        }
        Set<String> unknown = Set.copyOf(keys.unread());
        List<Line> lines = new ArrayList<>();
        keys.keyLines().forEach((key, at) -> {
            if (notUsed.contains(key)) {
                lines.add(new Line(key, at, Kind.NOT_USED, SapKeys.notUsed(key)));
            } else if (!unknown.contains(key) && insteadOf(key) == null) {
                lines.add(line(key, at, keys));
            }
        });
        return new SapProfile(lines);
    }

    /** A line some section read: mapped or applied (a refused or unknown one is a problem instead). */
    private static Line line(String key, int at, KeyReader keys) {
        String mapped = SapKeys.MAPPED.get(key);
        if (mapped != null) {
            String target = mapped.split(" ", 2)[0];
            return new Line(key, at, Kind.MAPPED, mapped + (keys.values().containsKey(target)
                    ? "; " + target + "'s own line wins" : ""));
        }
        String how = SapKeys.APPLIED.get(key);
        if (how == null && SapKeys.notUsed(key) != null) {
            how = "referred to by a line jwd reads";
        }
        return new Line(key, at, Kind.APPLIED, how == null ? "" : how);
    }

    private static String insteadOf(String key) {
        String instead = INSTEAD.get(key);
        if (instead != null) {
            return instead;
        }
        for (Map.Entry<String, String> e : INSTEAD_INDEXED.entrySet()) {
            if (key.startsWith(e.getKey()) && key.substring(e.getKey().length()).matches("\\d{1,2}")) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * The known key nearest to {@code key}, when it is near enough to be a typo: the same letters in another case,
     * or at most two edits away (one for short keys); else the one known key of the same name under another prefix
     * ({@code jwd.ssl_truststore}: {@code wdisp/ssl_truststore}); {@code null} otherwise.
     */
    public static String nearest(String key, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        int allowed = key.length() <= 8 ? 1 : 2;
        for (String k : known) {
            if (k.equalsIgnoreCase(key)) {
                return k;
            }
            int d = distance(key.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT), allowed);
            if (d <= allowed && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null ? best : sameName(key, known);
    }

    /** The one known key whose last part (after its last '/' or '.') is {@code key}'s, of 4 letters or more. */
    private static String sameName(String key, Collection<String> known) {
        String name = lastPart(key);
        List<String> same = known.stream().filter(k -> !k.equals(key) && lastPart(k).equalsIgnoreCase(name))
                .distinct().toList();
        return name.length() >= 4 && same.size() == 1 ? same.get(0) : null;
    }

    private static String lastPart(String key) {
        return key.substring(Math.max(key.lastIndexOf('/'), key.lastIndexOf('.')) + 1);
    }

    /** Levenshtein's distance, or {@code limit + 1} as soon as it is certain to exceed {@code limit}. */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int rowMin = current[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
