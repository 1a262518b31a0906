package org.jwd.systems;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.KeyReader;

/**
 * jwd's own keys per system: from the whole configuration and one system, that system's configuration in today's
 * unscoped form, so that each system is read by today's configuration parser unchanged.
 *
 * <p>{@code system.<SID>.<key>} is {@code <key>} for system {@code SID} alone. What SAP reads per system from the
 * system's message server can be scoped: {@code server.<id>.*} (a server belongs to one system, so with
 * {@code wdisp/system_<xx>} entries every server key must be scoped), {@code logon_group.<G>.*}, the URL mapping
 * ({@code icf.url_prefixes}, {@code icf.url_prefixes_url}, {@code wdisp/auto_refresh}), {@code is/HTTP/default_root_hdl},
 * and what keeps a system's sessions ({@link #PER_SYSTEM_KEYS}). Everything else is one setting for the whole jwd
 * (its ports, TLS, administration, limits, the session table's size) and is refused in scoped form. An unscoped key
 * is shared by every system; a scoped one wins over it.
 *
 * <p>From the entry itself: {@code SSL_ENCRYPT} is the system's {@code wdisp/ssl_encrypt}; {@code EXTSRV} gives the
 * system's servers {@code ext1}, {@code ext2}, ... (J2EE-typed, so that, without ICF prefixes, every request of the
 * system goes to them); {@code STICKY=true} keeps a client on one of them by jwd's {@code saplb_*} cookie
 * ({@code wdisp/add_saplb_cookie}), {@code STICKY=false} balances every request (no session table, no cookie).
 * {@code false} is the default as jwd reads SAP's syntax {@code [STICKY={true|false}]}: the documentation consulted
 * names no default.
 */
public final class SystemScope {
    public static final String PREFIX = "system.";
    /** The unscoped keys that may differ per system, besides {@code server.<id>.*} and {@code logon_group.<G>.*}. */
    public static final Set<String> PER_SYSTEM_KEYS = Set.of("icf.url_prefixes", "icf.url_prefixes_url",
            "wdisp/auto_refresh", "is/HTTP/default_root_hdl", "rdisp/autoabaptime", "wdisp/load_balancing_strategy",
            "SessionTableTimeout", "wdisp/HTTP/esid_support", "wdisp/HTTP/jsessionid_tab_support",
            "wdisp/HTTP/context_timeout", "wdisp/add_saplb_cookie");
    static final String SSL_ENCRYPT = "wdisp/ssl_encrypt";
    private static final Pattern SCOPED = Pattern.compile(Pattern.quote(PREFIX) + "([^.]+)\\.(.+)");

    private SystemScope() {
    }

    /**
     * The configuration of {@code system}, in today's unscoped form, with where each key came from.
     *
     * @param all    every property of the configuration, which {@link Systems#parse} has accepted
     * @param system one of its systems, or the implicit one: then {@code all} without the keys of systems
     */
    public static SystemProperties of(Map<String, String> all, SystemEntry system) {
        Map<String, String> properties = new TreeMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        Map<String, String> scoped = new TreeMap<>();
        all.forEach((key, value) -> {
            Matcher m = SCOPED.matcher(key);
            if (m.matches()) {
                if (m.group(1).equals(system.sid())) {
                    scoped.put(m.group(2), key);
                }
            } else if (!isSystemsKey(key)) {
                properties.put(key, value);
            }
        });
        scoped.forEach((key, origin) -> {
            properties.put(key, all.get(origin));
            origins.put(key, origin);
        });
        if (system.sslEncrypt() != null) {
            put(properties, origins, SSL_ENCRYPT, system.sslEncrypt().value(), system);
        }
        List<URI> external = system.externalServers();
        for (int i = 0; i < external.size(); i++) {
            String server = "server.ext" + (i + 1) + ".";
            boolean https = external.get(i).getScheme().equals("https");
            put(properties, origins, server + (https ? "https_url" : "url"), external.get(i).toString(), system);
            put(properties, origins, server + "type", "j2ee", system);
        }
        if (system.serverSource() != null) {
            // SAP: the entry's MSHOST overrides rdisp/mshost; what reads the system's keys sees it discovers
            put(properties, origins, "rdisp/mshost", String.valueOf(system.serverSource().msHost()), system);
        }
        if (!external.isEmpty()) {
            put(properties, origins, "wdisp/add_saplb_cookie", Boolean.toString(system.sticky()), system);
            if (!system.sticky()) {
                put(properties, origins, "wdisp/HTTP/esid_support", "false", system);
                put(properties, origins, "wdisp/HTTP/jsessionid_tab_support", "false", system);
                put(properties, origins, "SessionTableTimeout", "0", system);
            }
        }
        return new SystemProperties(system, properties, origins);
    }

    private static void put(Map<String, String> properties, Map<String, String> origins, String key, String value,
                            SystemEntry system) {
        properties.put(key, value);
        origins.put(key, system.key());
    }

    /** Keys that only {@link Systems} reads: today's parser never sees them. */
    public static boolean isSystemsKey(String key) {
        return key.startsWith(SystemEntry.KEY_PREFIX) || key.equals(Systems.DEFAULT_SYSTEM) || key.startsWith(PREFIX);
    }

    /** {@code server.a.url} of {@code system.ERP.server.a.url}; {@code null} for a key that is not scoped. */
    public static String unscoped(String key) {
        Matcher m = SCOPED.matcher(key);
        return m.matches() ? m.group(2) : null;
    }

    /** Reports every scoped key that names no system or cannot differ per system, and unscoped servers among systems. */
    static void check(Map<String, String> all, List<SystemEntry> entries, KeyReader keys) {
        Map<String, SystemEntry> bySid = new TreeMap<>();
        entries.forEach(e -> bySid.putIfAbsent(e.sid(), e));
        new TreeMap<>(all).forEach((key, value) -> {
            String where = key + " = '" + value + "': ";
            if (key.startsWith(PREFIX)) {
                Matcher m = SCOPED.matcher(key);
                if (!m.matches()) {
                    keys.problemText(key, where + "expected system.<SID>.<key>, as system.ERP.server.a.url");
                    return;
                }
                SystemEntry system = bySid.get(m.group(1));
                String unscoped = m.group(2);
                if (system == null) {
                    keys.problemText(key, where + "expected the SID of a " + SystemEntry.KEY_PREFIX + "<xx> entry after "
                            + PREFIX + Systems.sids(entries));
                } else if (unscoped.equals(SSL_ENCRYPT)) {
                    keys.problemText(key, where + "expected SSL_ENCRYPT=" + value + " in " + system.key()
                            + ", SAP's place for a system's " + SSL_ENCRYPT);
                } else if (unscoped.startsWith("server.")) {
                    if (!system.externalServers().isEmpty()) {
                        keys.problemText(key, where + "EXTSRV of " + system.key() + " gives " + system.sid()
                                + "'s servers already: expected the servers in one place");
                    }
                } else if (!unscoped.startsWith("logon_group.") && !PER_SYSTEM_KEYS.contains(unscoped)) {
                    keys.problemText(key, where + unscoped + " is one setting for the whole jwd: expected it without "
                            + PREFIX + system.sid() + ". (per system: server.<id>.*, logon_group.<G>.*, "
                            + String.join(", ", new TreeSet<>(PER_SYSTEM_KEYS)) + ")");
                }
            } else if (key.startsWith("server.") && !entries.isEmpty()) {
                keys.problemText(key, where + "with " + SystemEntry.KEY_PREFIX + "<xx> entries every server belongs to a"
                        + " system: expected " + PREFIX + "<SID>." + key);
            }
        });
    }
}
