package org.jwd.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One {@code icm/HTTP/admin_<xx>} entry, in SAP's syntax: where the administration is served and to whom.
 * <pre>
 * icm/HTTP/admin_0 = PREFIX=/jwd/admin, PORT=8090;8091, HOST=127.0.0.1, CLIENTHOST=10.0.0.0/8;::1
 * </pre>
 * Without any entry the administration is served at {@link #DEFAULT_PREFIX} on every listener, to every client
 * ({@link #DEFAULT}). SAP's own line, as its bootstrap writes it, is taken too:
 * {@code PREFIX=/sap/admin,DOCROOT=$(DIR_DATA)$(DIR_SEP)icmandir,AUTHFILE=$(icm/authfile)}: {@code DOCROOT} is read
 * and not used (jwd's page is in its WAR), {@code AUTHFILE} too, since SAP documents the lines of
 * {@code icmauth.txt} ({@code user:hash:group:subject}) but not its password hash, so its users cannot log in to
 * jwd: {@link #notUsed} names the {@code admin.*} lines to write. Their references need not resolve.
 *
 * @param prefix  {@code PREFIX}: the URL path the administration answers below, without a trailing '/'
 * @param ports   {@code PORT}: the local ports it answers on (a port jwd does not listen on otherwise gets a
 *                listener of its own); empty: every listener
 * @param hosts   {@code HOST}: the local addresses it answers on, IP literals ({@code localhost} is 127.0.0.1 and
 *                ::1, {@code 0.0.0.0} and {@code ::} every address of their family, written {@code 0.0.0.0/0} and
 *                {@code ::/0}); empty: every address. Also the addresses a listener opened for {@code PORT} binds.
 * @param clients {@code CLIENTHOST}: the client addresses it answers, addresses and CIDR ranges; empty: every client
 * @param authFile {@code AUTHFILE} as written, read and not used; {@code null} without
 * @param docRoot  {@code DOCROOT} as written, read and not used; {@code null} without
 */
public record AdminEntry(int number, String prefix, Set<Integer> ports, AddressRanges hosts, AddressRanges clients,
                         String authFile, String docRoot) {
    public static final String KEY_PREFIX = "icm/HTTP/admin_";
    public static final String DEFAULT_PREFIX = "/jwd/admin";
    public static final AdminEntry DEFAULT = new AdminEntry(-1, DEFAULT_PREFIX, Set.of(), AddressRanges.NONE,
            AddressRanges.NONE, null, null);
    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,2}");
    private static final Pattern PREFIX = Pattern.compile("(/[A-Za-z0-9._~!$&'()+=@-]+)+");
    private static final List<String> KNOWN = List.of("PREFIX", "PORT", "HOST", "CLIENTHOST", "DOCROOT", "AUTHFILE");
    /** The sub-parameters read and not used: their references are not resolved. */
    private static final Set<String> NOT_USED = Set.of("DOCROOT", "AUTHFILE");
    /** SAP's sub-parameters jwd cannot honour, each with the reason the error gives. */
    private static final Map<String, String> REFUSED = Map.of(
            "ALLOWPUB", "jwd serves no public administration pages; leave ALLOWPUB out");

    public AdminEntry {
        ports = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(ports));
    }

    /**
     * Every {@code icm/HTTP/admin_<xx>} of the file, in the order of their numbers; an entry with a problem is left
     * out (the problem is reported). No entry: {@link #DEFAULT} alone.
     */
    public static List<AdminEntry> readAll(KeyReader keys) {
        Map<Integer, AdminEntry> entries = new java.util.TreeMap<>();
        for (String key : keys.values().keySet()) {
            if (!key.startsWith(KEY_PREFIX)) {
                continue;
            }
            String number = key.substring(KEY_PREFIX.length());
            String value = keys.unresolved(key);
            if (!NUMBER.matcher(number).matches()) {
                keys.problemText(key, key + ": expected " + KEY_PREFIX + "<xx>, <xx> a number without a leading 0");
                continue;
            }
            AdminEntry entry = parse(Integer.parseInt(number), value, key, keys);
            if (entry != null) {
                entries.put(entry.number(), entry);
            }
        }
        return entries.isEmpty() ? List.of(DEFAULT) : List.copyOf(entries.values());
    }

    private static AdminEntry parse(int number, String value, String key, KeyReader keys) {
        int before = keys.problemCount();
        Map<String, String> sub = subParameters(value, key, keys);
        String prefix = sub.getOrDefault("PREFIX", DEFAULT_PREFIX).strip();
        if (prefix.endsWith("/") && prefix.length() > 1) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (!PREFIX.matcher(prefix).matches() || prefix.contains("/.") || prefix.equals("/jwd/health")) {
            keys.problemText(key, key + ": PREFIX = '" + sub.get("PREFIX") + "': expected a URL path below '/'"
                    + " (/jwd/admin, /sap/wdisp/admin), without '*', '.' segments or /jwd/health");
        }
        Set<Integer> ports = new LinkedHashSet<>();
        for (String item : items(sub.get("PORT"))) {
            int port = port(item);
            if (port < 1) {
                keys.problemText(key, key + ": PORT item '" + item + "': expected a port number from 1 to 65535");
            }
            ports.add(port);
        }
        AddressRanges hosts = hosts(items(sub.get("HOST")), key, keys);
        AddressRanges.Parsed clients = AddressRanges.parse(items(sub.get("CLIENTHOST")));
        for (String bad : clients.badEntries()) {
            keys.problemText(key, key + ": CLIENTHOST item '" + bad + "': expected " + AddressRanges.EXPECTED
                    + "; jwd resolves no host names");
        }
        return keys.problemCount() > before ? null : new AdminEntry(number, prefix, ports, hosts, clients.ranges(),
                sub.get("AUTHFILE"), sub.get("DOCROOT"));
    }

    /** {@code NAME=value} sub-parameters by name (upper case); an unknown, refused or repeated one is a problem. */
    private static Map<String, String> subParameters(String value, String key, KeyReader keys) {
        Map<String, String> sub = new LinkedHashMap<>();
        for (String part : value.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = (eq < 0 ? part : part.substring(0, eq)).strip().toUpperCase(Locale.ROOT);
            if (REFUSED.containsKey(name)) {
                keys.problemText(key, key + ": " + name + " is not read by jwd: " + REFUSED.get(name));
            } else if (eq < 0 || !KNOWN.contains(name)) {
                keys.problemText(key, key + " = '" + value + "': '" + part.strip() + "' is no known sub-parameter;"
                        + " expected NAME=value for NAME in " + KNOWN);
            } else if (sub.put(name, NOT_USED.contains(name) ? part.substring(eq + 1).strip()
                    : keys.resolve(key, part.substring(eq + 1).strip())) != null) {
                keys.problemText(key, key + ": " + name + " appears twice");
            }
        }
        return sub;
    }

    /** The items of a sub-parameter's list, separated by ';' (SAP's separator). */
    private static List<String> items(String value) {
        List<String> items = new ArrayList<>();
        if (value != null) {
            for (String item : value.split(";")) {
                if (!item.isBlank()) {
                    items.add(item.strip());
                }
            }
        }
        return items;
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            return port >= 1 && port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** HOST's items as IP literals; {@code localhost} is the loopback of both families. */
    private static AddressRanges hosts(List<String> items, String key, KeyReader keys) {
        List<String> hosts = new ArrayList<>();
        for (String item : items) {
            if (item.equalsIgnoreCase("localhost")) {
                hosts.add("127.0.0.1");
                hosts.add("::1");
            } else if (item.equals("0.0.0.0") || item.equals("::") || item.equals("[::]")) {
                // every address of its family: what a listener bound there takes
                hosts.add(item.equals("0.0.0.0") ? "0.0.0.0/0" : "::/0");
            } else if (AddressRanges.literal(item.startsWith("[") && item.endsWith("]")
                    ? item.substring(1, item.length() - 1) : item) != null) {
                hosts.add(item.startsWith("[") ? item.substring(1, item.length() - 1) : item);
            } else {
                keys.problemText(key, key + ": HOST item '" + item + "': expected an IP address of this machine, or"
                        + " localhost; jwd resolves no host names");
            }
        }
        return AddressRanges.parse(hosts).ranges();
    }

    /** Whether a request that came to {@code localAddress}:{@code localPort} is on one of this entry's listeners. */
    public boolean servesListener(String localAddress, int localPort) {
        return (ports.isEmpty() || ports.contains(localPort)) && (hosts.isEmpty() || hosts.contains(localAddress));
    }

    /** Whether the client at {@code remoteAddress} may use the administration through this entry. */
    public boolean servesClient(String remoteAddress) {
        return clients.isEmpty() || clients.contains(remoteAddress);
    }

    /**
     * What the start and {@code bin/jwd check} say of {@code DOCROOT} and {@code AUTHFILE}: read and not used, and
     * the lines to write instead of SAP's users; {@code null} without either.
     *
     * @param users whether the file has {@code admin.*} users: without, the prefix answers 401 until it has
     */
    public String notUsed(boolean users) {
        if (authFile == null && docRoot == null) {
            return null;
        }
        String text = key() + ": " + (docRoot == null ? "" : "DOCROOT=" + docRoot + " read, not used: jwd's page is"
                + " part of its WAR" + (authFile == null ? "" : "; "));
        return authFile == null ? text : text + "AUTHFILE=" + authFile + " read, not used: SAP documents the lines"
                + " of its authentication file (icmauth.txt: user:hash:group:subject) but not their password hash, so"
                + " its users cannot log in to jwd; write admin.user = <name> and admin.password_hash = <bin/jwd"
                + " hash-password's output> for a user of group admin, admin.users.<name>.password_hash and"
                + " admin.users.<name>.role = monitor for the others" + (users ? ""
                : " (until then " + prefix + " answers 401 to everyone)");
    }

    /** The key, for messages: {@code icm/HTTP/admin_0}, or the default's words. */
    public String key() {
        return number < 0 ? "the default administration (no " + KEY_PREFIX + "<xx>)" : KEY_PREFIX + number;
    }

    @Override
    public String toString() {
        return key() + "[PREFIX=" + prefix + (ports.isEmpty() ? "" : ", PORT=" + join(ports))
                + (hosts.isEmpty() ? "" : ", HOST=" + String.join(";", hosts.entries()))
                + (clients.isEmpty() ? "" : ", CLIENTHOST=" + String.join(";", clients.entries())) + "]";
    }

    private static String join(Set<Integer> ports) {
        return String.join(";", ports.stream().map(String::valueOf).toList());
    }
}
