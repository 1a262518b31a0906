package org.jwd.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * jwd's listeners as an SAP profile declares them: {@code icm/server_port_<xx> = PROT=HTTP, PORT=8000, ...}, one
 * line per port, indexes with gaps allowed. {@code PROT=HTTP} is a plain HTTP listener, {@code HTTPS} jwd's TLS
 * termination (presenting its {@code SSLCONFIG}, an {@code icm/ssl_config_<xx>}, else {@code jwd.ssl_keystore}: jwd
 * reads no PSE), {@code ROUTER} the end-to-end TLS listener. Without {@code HOST} a port listens on every interface,
 * as SAP's does. What jwd cannot honour (another protocol, a sub-parameter it has no counterpart for, two ROUTER
 * ports) is refused naming it.
 *
 * @param ports the lines, by index; empty when the profile declares none (the command line's ports then)
 */
public record ServerPorts(List<ServerPort> ports) {
    public static final String PREFIX = "icm/server_port_";
    private static final Pattern KEY = Pattern.compile(Pattern.quote(PREFIX) + "(\\d{1,2})");
    private static final Pattern SEPARATOR = Pattern.compile("\\s*,\\s*");
    private static final Set<String> KNOWN = Set.of("PROT", "PORT", "HOST", "TIMEOUT", "PROCTIMEOUT", "EXTBIND",
            "NOLISTEN", "SSLCONFIG", "VCLIENT");
    public static final ServerPorts NONE = new ServerPorts(List.of());

    public ServerPorts {
        ports = List.copyOf(ports);
    }

    /**
     * What an HTTPS line says of its TLS.
     *
     * @param sslConfig    {@code SSLCONFIG}: the {@code ID} of an {@code icm/ssl_config_<xx>}, or
     *                     {@code ssl_config_<xx>}; {@code null} when not given
     * @param verifyClient {@code VCLIENT}: as {@code icm/HTTPS/verify_client}, for this port; {@code null}
     */
    public record PortTls(String sslConfig, Integer verifyClient) {
        static final PortTls NONE = new PortTls(null, null);
    }

    /** The protocols of {@code PROT} that jwd serves. */
    public enum Protocol { HTTP, HTTPS, ROUTER }

    /**
     * One {@code icm/server_port_<xx>} line.
     *
     * @param key         the key as written, for messages
     * @param host        the address to listen on; {@code null} for every interface
     * @param timeout     {@code TIMEOUT}: how long a kept-alive connection may stay idle; {@code null} when not given
     * @param procTimeout {@code PROCTIMEOUT}: the longest a request may take; {@code null} when not given
     * @param listens     {@code false} with {@code NOLISTEN=1}: the port is named (for URLs) but not opened
     * @param tls         {@code SSLCONFIG} and {@code VCLIENT} of a {@code PROT=HTTPS} line
     */
    public record ServerPort(String key, Protocol protocol, int port, String host, Duration timeout,
                             Duration procTimeout, boolean listens, PortTls tls) {
        /** The name of the line's {@code icm/ssl_config_<xx>} ({@code SSLCONFIG}), or {@code null}. */
        public String sslConfig() {
            return tls.sslConfig();
        }

        /** The line's {@code VCLIENT}: 0, 1 or 2, or {@code null} when not given. */
        public Integer verifyClient() {
            return tls.verifyClient();
        }

        @Override
        public String toString() {
            return key + " (PROT=" + protocol + ", PORT=" + port + (host == null ? "" : ", HOST=" + host) + ")";
        }
    }

    /** The lines of {@code protocol} that open a port, in index order. */
    public List<ServerPort> of(Protocol protocol) {
        return ports.stream().filter(p -> p.protocol() == protocol && p.listens()).toList();
    }

    /**
     * The one request timeout the lines agree on ({@code PROCTIMEOUT}), or {@code null} when none gives it; lines
     * that give different ones are refused by {@link #read}, since jwd has one request timeout.
     */
    public Duration procTimeout() {
        return ports.stream().map(ServerPort::procTimeout).filter(t -> t != null).findFirst().orElse(null);
    }

    /** The one idle timeout the HTTP and HTTPS lines agree on ({@code TIMEOUT}), or {@code null}. */
    public Duration timeout() {
        return ports.stream().map(ServerPort::timeout).filter(t -> t != null).findFirst().orElse(null);
    }

    /** Reads every {@code icm/server_port_<xx>} key; problems go to {@code keys}. */
    public static ServerPorts read(KeyReader keys) {
        Map<Integer, String> byIndex = new TreeMap<>();
        for (String key : keys.values().keySet()) {
            Matcher m = KEY.matcher(key);
            if (m.matches()) {
                byIndex.put(Integer.parseInt(m.group(1)), key);
            }
        }
        List<ServerPort> ports = new ArrayList<>();
        for (String key : byIndex.values()) {
            ServerPort port = port(keys, key);
            if (port != null) {
                ports.add(port);
            }
        }
        agree(keys, ports, ServerPort::procTimeout, "PROCTIMEOUT", "jwd has one request timeout");
        agree(keys, ports, ServerPort::timeout, "TIMEOUT", "jwd's listeners share one idle timeout");
        List<ServerPort> routers = ports.stream().filter(p -> p.protocol() == Protocol.ROUTER && p.listens()).toList();
        if (routers.size() > 1) {
            keys.problemText(routers.get(1).key(), routers.get(1).key() + " = '" + keys.raw(routers.get(1).key())
                    + "': jwd has one end-to-end TLS listener, and " + routers.get(0).key() + " declares it already:"
                    + " expected one PROT=ROUTER line");
        }
        return new ServerPorts(ports);
    }

    private static ServerPort port(KeyReader keys, String key) {
        String value = keys.raw(key);
        Map<String, String> sub = new LinkedHashMap<>();
        List<String> wrong = new ArrayList<>();
        for (String part : SEPARATOR.split(value.strip())) {
            int eq = part.indexOf('=');
            String name = part.substring(0, Math.max(eq, 0)).strip().toUpperCase(Locale.ROOT);
            if (name.isEmpty()) {
                wrong.add("'" + part + "' is not NAME=value");
            } else if (!KNOWN.contains(name)) {
                wrong.add(name + " is no sub-parameter jwd knows: expected " + String.join(", ", KNOWN.stream()
                        .sorted().toList()));
            } else if (sub.put(name, part.substring(eq + 1).strip()) != null) {
                wrong.add(name + " is given twice");
            }
        }
        Protocol protocol = protocol(sub.get("PROT"), wrong);
        int port = port(sub.get("PORT"), wrong);
        Duration timeout = seconds("TIMEOUT", sub.get("TIMEOUT"), wrong);
        Duration procTimeout = seconds("PROCTIMEOUT", sub.get("PROCTIMEOUT"), wrong);
        boolean listens = !flag("NOLISTEN", sub.get("NOLISTEN"), wrong);
        flag("EXTBIND", sub.get("EXTBIND"), wrong);
        String host = sub.get("HOST");
        if (host != null && host.isEmpty()) {
            wrong.add("HOST is empty");
        }
        PortTls tls = tls(protocol, sub, wrong);
        if (!wrong.isEmpty()) {
            keys.problemText(key, key + " = '" + value + "': " + String.join("; ", wrong));
            return null;
        }
        return new ServerPort(key, protocol, port, host, timeout, procTimeout, listens, tls);
    }

    /** {@code SSLCONFIG} and {@code VCLIENT}, which only an HTTPS line may give. */
    private static PortTls tls(Protocol protocol, Map<String, String> sub, List<String> wrong) {
        String sslConfig = sub.get("SSLCONFIG");
        String verify = sub.get("VCLIENT");
        if ((sslConfig != null || verify != null) && protocol != Protocol.HTTPS) {
            wrong.add((sslConfig != null ? "SSLCONFIG" : "VCLIENT") + " is for PROT=HTTPS lines: jwd decrypts no"
                    + " other port");
            return PortTls.NONE;
        }
        if (verify != null && !verify.matches("[012]")) {
            wrong.add("VCLIENT=" + verify + ": expected 0 (no client certificate asked for), 1 (asked for) or 2"
                    + " (required)");
            return PortTls.NONE;
        }
        if (sslConfig != null && sslConfig.isEmpty()) {
            wrong.add("SSLCONFIG is empty: expected the ID of an icm/ssl_config_<xx>, or ssl_config_<xx>");
        }
        return new PortTls(sslConfig, verify == null ? null : Integer.parseInt(verify));
    }

    private static Protocol protocol(String text, List<String> wrong) {
        if (text == null) {
            wrong.add("PROT is missing: expected PROT=HTTP, HTTPS or ROUTER");
            return null;
        }
        try {
            return Protocol.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            wrong.add("PROT=" + text + " is not served by jwd: expected HTTP, HTTPS or ROUTER (end-to-end TLS)");
            return null;
        }
    }

    private static int port(String text, List<String> wrong) {
        if (text == null) {
            wrong.add("PORT is missing: expected a port number");
            return -1;
        }
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        wrong.add("PORT=" + text + " is not a port number (0 to 65535; 0 takes any free port)");
        return -1;
    }

    /** SAP's time sub-parameters are seconds; a unit may be given. */
    private static Duration seconds(String name, String text, List<String> wrong) {
        if (text == null) {
            return null;
        }
        try {
            Duration d = Durations.parseSeconds(text);
            if (!d.isZero()) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // named below
        }
        wrong.add(name + "=" + text + " is not a positive number of seconds");
        return null;
    }

    /** A 0-or-1 sub-parameter: {@code true} when it is 1 (absent is 0). */
    private static boolean flag(String name, String text, List<String> wrong) {
        if (text != null && !text.equals("0") && !text.equals("1")) {
            wrong.add(name + "=" + text + ": expected 0 or 1");
        }
        return "1".equals(text);
    }

    private static void agree(KeyReader keys, List<ServerPort> ports,
                              java.util.function.Function<ServerPort, Duration> what, String name, String why) {
        ServerPort first = null;
        for (ServerPort p : ports) {
            Duration d = what.apply(p);
            if (d == null) {
                continue;
            }
            if (first == null) {
                first = p;
            } else if (!d.equals(what.apply(first))) {
                keys.problemText(p.key(), p.key() + ": " + name + " differs from " + first.key() + "'s (" + why
                        + "): expected the same " + name + " on every line that gives one");
                return;
            }
        }
    }

    @Override
    public String toString() {
        return ports.toString();
    }
}
