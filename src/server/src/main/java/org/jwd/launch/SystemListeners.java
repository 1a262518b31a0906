package org.jwd.launch;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jwd.config.AdminEntry;
import org.jwd.systems.AccessPoint;
import org.jwd.systems.SystemEntry;
import org.jwd.systems.Systems;

/**
 * The plain HTTP listeners {@code bin/jwd run} opens besides its own ports, so that an {@code SRCSRV} access point
 * of a {@code wdisp/system_<xx>} entry can be reached at all: one per port an {@code SRCSRV} item names that jwd
 * does not listen on anyway ({@code --port}, the HTTPS port, {@code wdisp/HTTPS/port}). An item with the host
 * {@code *} binds {@code --host}, an item with an IP address binds that address, an item with a host name each
 * address the name resolved to; an item with the port {@code *} (any port) opens none. Ports in ascending order,
 * each port's addresses in entry order:
 * <pre>
 *   SRCSRV=*:8081;10.0.0.1:8082, --host 127.0.0.1, --port 8080  ->  127.0.0.1:8081, 10.0.0.1:8082
 *   SRCSRV=*:8080;*:8081,        --host 127.0.0.1, --port 8080  ->  127.0.0.1:8081
 *   SRCSRV=*:8081;10.0.0.1:8081, --host 0.0.0.0                 ->  0.0.0.0:8081 (it takes 10.0.0.1 too)
 *   SRCSRV=*:*;localhost:8082,   --host 127.0.0.1, --port 8080  ->  127.0.0.1:8082 (and [::1]:8082 if localhost has it)
 * </pre>
 */
final class SystemListeners {
    /** Hosts that make a listener accept on every address of the machine. */
    private static final Set<String> EVERY_ADDRESS = Set.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");

    /**
     * One listener: the address it binds and its port.
     *
     * @param host an IP address, IPv6 without brackets
     */
    record Listener(String host, int port) {
        /** Reads what {@link #toString()} writes: {@code 127.0.0.1:8081}, {@code [::1]:8081}. */
        static Listener parse(String text) {
            int colon = text.lastIndexOf(':');
            String host = colon <= 0 ? "" : text.substring(0, colon);
            int port = colon <= 0 ? -1 : portOf(text.substring(colon + 1));
            if (host.isEmpty() || port < 1) {
                throw new IllegalArgumentException("jwd.listeners: '" + text
                        + "': expected <address>:<port>, the port 1 to 65535 (bin/jwd writes it from SRCSRV)");
            }
            return new Listener(host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
                    : host, port);
        }

        private static int portOf(String text) {
            try {
                int port = Integer.parseInt(text);
                return port <= 65535 ? port : -1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private SystemListeners() {
    }

    /**
     * The listeners of the administration's ports ({@code PORT} of {@code icm/HTTP/admin_<xx>}) that jwd does not
     * listen on otherwise: each on the entry's {@code HOST} addresses ({@code 0.0.0.0} and {@code ::} for every
     * address of their family), or {@code --host} without one.
     */
    static List<Listener> ofAdmin(List<AdminEntry> entries, String host, Set<Integer> open) {
        Set<Listener> listeners = new LinkedHashSet<>();
        for (AdminEntry entry : entries) {
            List<String> hosts = entry.hosts().isEmpty() ? List.of(host) : entry.hosts().entries().stream()
                    .map(h -> h.endsWith("/0") ? h.substring(0, h.length() - 2) : h).toList();
            for (int port : entry.ports()) {
                if (!open.contains(port)) {
                    hosts.forEach(h -> listeners.add(new Listener(h, port)));
                }
            }
        }
        return List.copyOf(listeners);
    }

    /**
     * @param host what an item with the host {@code *} binds: {@code --host}
     * @param open the ports jwd listens on anyway
     */
    static List<Listener> of(Systems systems, String host, Set<Integer> open) {
        Map<Integer, Set<String>> hostsByPort = new TreeMap<>();
        for (SystemEntry entry : systems.isImplicit() ? List.<SystemEntry>of() : systems.entries()) {
            for (AccessPoint point : entry.accessPoints()) {
                if (point.port() != AccessPoint.ANY_PORT && !open.contains(point.port())) {
                    hostsByPort.computeIfAbsent(point.port(), p -> new LinkedHashSet<>())
                            .addAll(point.host().equals(AccessPoint.ANY_HOST) ? List.of(host) : point.addresses());
                }
            }
        }
        List<Listener> listeners = new ArrayList<>();
        hostsByPort.forEach((port, hosts) -> {
            // A listener on every address takes the port on each of them: another one beside it would not bind.
            boolean everyAddress = hosts.contains(host) && EVERY_ADDRESS.contains(host);
            for (String h : everyAddress ? Set.of(host) : hosts) {
                listeners.add(new Listener(h, port));
            }
        });
        return listeners;
    }
}
