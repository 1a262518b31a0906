package org.jwd.termination;

import java.util.ArrayList;
import java.util.List;

/**
 * One further HTTPS listener as bin/jwd passes it ({@code jwd.https_listeners}), and as
 * {@code org.jwd.launch.JettyModules} printed it: {@code <address>:<port>=<line>}, an IPv6 address in brackets.
 *
 * @param host an IP address, IPv6 without brackets
 * @param line the {@code icm/server_port_<xx>} it listens for
 */
record HttpsListener(String host, int port, String line) {
    /** The items of {@code text}, separated by {@code ,}; none for an empty text or bin/jwd's {@code -}. */
    static List<HttpsListener> parseAll(String text) {
        List<HttpsListener> listeners = new ArrayList<>();
        if (text.strip().equals("-")) {
            return listeners;
        }
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                listeners.add(parse(item.strip()));
            }
        }
        return listeners;
    }

    /** @throws IllegalArgumentException for an item not of the form bin/jwd writes */
    static HttpsListener parse(String item) {
        int eq = item.indexOf('=');
        String address = eq < 0 ? item : item.substring(0, eq);
        int colon = address.lastIndexOf(':');
        String host = colon <= 0 ? "" : address.substring(0, colon);
        int port = -1;
        try {
            port = colon <= 0 ? -1 : Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            // named below
        }
        if (eq < 0 || host.isEmpty() || port < 0 || port > 65535 || eq == item.length() - 1) {
            throw new IllegalArgumentException("jwd.https_listeners: '" + item + "': expected <address>:<port>=<the"
                    + " icm/server_port_<xx> it listens for> (bin/jwd writes it)");
        }
        return new HttpsListener(host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
                : host, port, item.substring(eq + 1));
    }
}
