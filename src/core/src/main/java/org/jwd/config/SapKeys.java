package org.jwd.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What jwd makes of each line of an SAP Web Dispatcher profile that is not one of the Web Dispatcher's routing keys:
 * the tables behind {@link SapProfile} and the migration report of {@code bin/jwd check}. Each reason is short: the
 * report and the start's "read, not used" block print it after the key. Where SAP documents each key:
 * docs/sap-parameters.md, "The lines of an SAP profile".
 */
final class SapKeys {
    private static final String INSTANCE = "the SAP instance's name and hosts: jwd is no SAP instance";
    private static final String THREADS = "the ICM's worker threads: Jetty's pool grows and shrinks by itself, jwd's"
            + " HTTP client's threads are jwd.client_threads";
    private static final String LIBRARY = "SAP's cryptographic library: jwd's TLS is Java's";
    private static final String TABLES = "a size of the Web Dispatcher's tables in shared memory: jwd's lists grow"
            + " as needed";
    private static final String REFERENCED = "used where a line jwd reads refers to it ($(...))";
    private static final String START_SERVICE = "a program of SAP's start service: bin/jwd run (or jwd.service)"
            + " starts jwd";
    private static final String PSE = "jwd reads no PSE: ";

    /** Keys read and not used, with why. */
    static final Map<String, String> NOT_USED = new LinkedHashMap<>();
    /** Prefixes of keys read and not used, with why. */
    static final Map<String, String> NOT_USED_PREFIXES = new LinkedHashMap<>();
    /** SAP keys some section reads into a jwd key's place: what the report says of them. */
    static final Map<String, String> MAPPED = new LinkedHashMap<>();
    /** SAP keys some section applies in SAP's meaning, where a word on how helps. */
    static final Map<String, String> APPLIED = new LinkedHashMap<>();

    static {
        for (String key : new String[] {"SAPSYSTEMNAME", "SAPSYSTEM", "INSTANCE_NAME", "SAPGLOBALHOST",
                "SAPLOCALHOST", "SAPLOCALHOSTFULL", "SAPFQDN", "SAPDBHOST", "OS_UNICODE"}) {
            NOT_USED.put(key, INSTANCE);
        }
        NOT_USED.put("icm/host_name_full", "the host name of the ICM's own absolute URLs: jwd makes none");
        NOT_USED.put("icm/max_sockets", "the ICM's socket table: jwd's limit is the process's open files (ulimit -n,"
                + " LimitNOFILE of jwd.service)");
        NOT_USED.put("icm/req_queue_len", "the ICM's queue of requests waiting for a thread: Jetty reads each request"
                + " as it comes; jwd queues per server (server.<id>.max_queue)");
        for (String key : new String[] {"icm/min_threads", "icm/max_threads", "icm/min_spare_threads"}) {
            NOT_USED.put(key, THREADS);
        }
        NOT_USED.put("icm/security_log", "the ICM's security log: jwd names what it refuses in its log and the"
                + " access log");
        NOT_USED.put("icm/HTTP/error_templ_path", "the ICM's error pages: jwd's are its own text"
                + " (is/HTTP/show_detailed_errors)");
        NOT_USED.put("icm/authfile", "the ICM's user file (icmauth.txt): jwd's administrators are admin.* lines");
        NOT_USED.put("wdisp/shm_attach_mode", "the Web Dispatcher's shared memory: jwd's tables are in the JVM");
        for (String key : new String[] {"wdisp/max_servers", "wdisp/max_server_groups",
                "wdisp/max_url_map_entries"}) {
            NOT_USED.put(key, TABLES);
        }
        for (String key : new String[] {"ssl/ssl_lib", "sec/libsapsecu", "ssf/ssfapi_lib", "ssf/name"}) {
            NOT_USED.put(key, LIBRARY);
        }
        NOT_USED.put("ssl/server_pse", PSE + "its HTTPS ports present jwd.ssl_keystore or an icm/ssl_config_<xx>'s"
                + " CRED, a PKCS#12 file (sapgenpse export_p12 -p SAPSSLS.pse jwd.p12)");
        NOT_USED.put("ssl/client_pse", PSE + "it checks the servers' certificates against wdisp/ssl_truststore"
                + " and presents wdisp/ssl_cred's (wdisp/ssl_auth)");
        NOT_USED.put("service/protectedwebmethods", "sapstartsrv's protected web methods: jwd runs no sapstartsrv");
        NOT_USED_PREFIXES.put("DIR_", "a directory of the SAP instance; " + REFERENCED);
        NOT_USED_PREFIXES.put("SETENV_", "the environment of SAP's start service: bin/jwd run's is JWD_JAVA_OPTS and"
                + " the shell's");
        for (String prefix : new String[] {"Execute_", "Start_Program_", "Restart_Program_", "Stop_Program_"}) {
            NOT_USED_PREFIXES.put(prefix, START_SERVICE);
        }
        NOT_USED_PREFIXES.put("_", "a local name of the profile; " + REFERENCED);
        NOT_USED_PREFIXES.put("mpi/", "the ICM's memory pipes: jwd streams bodies through Jetty's buffers");
        NOT_USED_PREFIXES.put("rdisp/TRACE", "SAP's trace: jwd's log levels are its logging's (Jetty's)");
        NOT_USED_PREFIXES.put("rdisp/trace", "SAP's trace: jwd's log levels are its logging's (Jetty's)");
        NOT_USED_PREFIXES.put("exe/", "SAP's executables: jwd runs none");

        MAPPED.put("icm/conn_timeout", "jwd.connect_timeout (SAP's milliseconds)");
        MAPPED.put("wdisp/HTTP/max_pooled_con", "jwd.connections_per_server (SAP's pool is shared by the servers,"
                + " jwd's is each server's: the larger of the HTTP and HTTPS values)");
        MAPPED.put("wdisp/HTTPS/max_pooled_con", MAPPED.get("wdisp/HTTP/max_pooled_con"));
        APPLIED.put("icm/max_conn", "client connections at most at once: Jetty's network-connection-limit");
        APPLIED.put("icm/keep_alive_timeout", "the idle timeout of kept-alive connections, where no"
                + " icm/server_port_<xx> gives a TIMEOUT");
    }

    private SapKeys() {
    }

    /** Why a line of the instance is read and not used, or {@code null}: not such a line. */
    static String notUsed(String key) {
        String why = NOT_USED.get(key);
        if (why != null) {
            return why;
        }
        return NOT_USED_PREFIXES.entrySet().stream().filter(e -> key.startsWith(e.getKey())).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }
}
