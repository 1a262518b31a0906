package org.jwd.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What jwd makes of the lines of an SAP Web Dispatcher profile that are not its own keys, so that a profile pastes.
 * The instance's lines ({@code SAPSYSTEMNAME}, {@code DIR_*}, {@code Start_Program_*}, the ICM's thread and memory
 * tuning, ...) are read and not used: jwd lists them once at start. The keys of features SAP has and jwd does not
 * (the message server's own protocol port, redirects and file access of the ICM, PSE files) are refused, each with
 * what to write instead. Read last, over the keys no section read.
 *
 * @param notUsed the lines read and not used, as their keys, in the file's order
 */
public record SapProfile(List<String> notUsed) {
    /** Keys of an SAP instance profile jwd reads and does not use. */
    private static final Set<String> INSTANCE_KEYS = Set.of("SAPSYSTEMNAME", "SAPSYSTEM", "INSTANCE_NAME",
            "SAPGLOBALHOST", "SAPLOCALHOST", "SAPLOCALHOSTFULL", "SAPFQDN", "SAPDBHOST", "OS_UNICODE",
            "icm/host_name_full", "icm/max_conn", "icm/max_sockets", "icm/req_queue_len", "icm/min_threads",
            "icm/max_threads", "icm/min_spare_threads", "icm/keep_alive_timeout", "icm/conn_timeout",
            "icm/security_log", "icm/HTTP/error_templ_path",
            "wdisp/HTTP/max_pooled_con", "wdisp/HTTPS/max_pooled_con", "wdisp/shm_attach_mode",
            "ssl/ssl_lib", "sec/libsapsecu", "ssf/ssfapi_lib", "ssf/name", "service/protectedwebmethods");
    /** Prefixes of such keys: directories, environment, the start service's programs, the ICM's memory pipes. */
    private static final List<String> INSTANCE_PREFIXES = List.of("DIR_", "SETENV_", "Execute_", "Start_Program_",
            "Restart_Program_", "Stop_Program_", "_", "mpi/", "rdisp/TRACE", "rdisp/trace", "exe/");

    private static final String HTTP_PORT = "jwd asks the message server over HTTP, as SAP's Web Dispatcher does:"
            + " write ms/http_port = <the message server's HTTP port> (ms/server_port_<xx> of its profile) beside"
            + " rdisp/mshost, or ms/https_port for its HTTPS port";
    /** SAP keys jwd does not support, and what to write instead. */
    private static final Map<String, String> INSTEAD = Map.ofEntries(
            Map.entry("rdisp/msserv", HTTP_PORT),
            Map.entry("rdisp/msserv_internal", HTTP_PORT),
            Map.entry("ssl/server_pse", "jwd reads no PSE: export it to PKCS#12 (sapgenpse export_p12 -p SAPSSLS.pse"
                    + " jwd.p12) and name it in jwd.ssl_keystore (with jwd.ssl_keystore_password) or in the CRED of an"
                    + " icm/ssl_config_<xx>"),
            Map.entry("ssl/client_pse", "jwd reads no PSE: it checks the servers' certificates against"
                    + " wdisp/ssl_truststore (their CAs in a PKCS#12 or JKS file, with wdisp/ssl_truststore_password),"
                    + " and its own client certificate is the PKCS#12 file wdisp/ssl_cred names (wdisp/ssl_auth)"));
    /** Indexed SAP keys jwd does not support, by their prefix. */
    private static final Map<String, String> INSTEAD_INDEXED = Map.of(
            "icm/HTTP/redirect_", "a redirect is a RegRedirectUrl line of an action file (icm/HTTP/mod_<xx>)",
            "icm/HTTP/file_access_", "jwd serves no files: let a server behind it serve them",
            "icm/HTTP/server_cache_", "jwd keeps no cache of answers");

    public static final SapProfile NONE = new SapProfile(List.of());

    public SapProfile {
        notUsed = List.copyOf(notUsed);
    }

    /** Reads the keys no section read: an instance's lines are read and not used, unsupported ones refused. */
    public static SapProfile read(KeyReader keys) {
        List<String> notUsed = new ArrayList<>();
        for (String key : keys.unread()) {
            String instead = insteadOf(key);
            if (instead != null) {
                keys.readNotUsed(key);
                keys.problemText(key, key + " = '" + keys.values().get(key) + "': SAP's, not supported by jwd: "
                        + instead);
            } else if (isInstanceKey(key)) {
                // its value is not even looked at: its references ($(DIR_LIBRARY)...) need not resolve
                keys.readNotUsed(key);
                notUsed.add(key);
            }
        }
        return new SapProfile(notUsed);
    }

    private static boolean isInstanceKey(String key) {
        return INSTANCE_KEYS.contains(key) || INSTANCE_PREFIXES.stream().anyMatch(key::startsWith);
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
