package org.jwd.proxy;

import jakarta.servlet.http.HttpServletRequest;

import org.jwd.config.HeaderForwarding;
import org.jwd.modification.Modification;
import org.jwd.modification.RequestView;
import org.jwd.routing.RoutingRequest;
import org.jwd.runtime.DispatcherState;

/**
 * A client's request as the modification handler reads it ({@code icm/HTTP/mod_<xx>}), and the handler applied to
 * it: its headers as the client sent them, but not the system it names ({@code x-sap-webdisp-target-sid}) unless a
 * trusted proxy sent it; HTTP/2's {@code :authority} as its {@code Host}.
 */
final class RequestModification {
    private RequestModification() {
    }

    /** @param original the request as routing reads it, its path normalized */
    static Modification apply(HttpServletRequest clientRequest, DispatcherState snapshot, RoutingRequest original) {
        return snapshot.modifications().apply(new RequestView(clientRequest.getMethod(), original.rawPath(),
                original.query(), original.path(), clientRequest.isSecure(), clientRequest.getRemoteAddr(),
                clientRequest.getRemotePort(), clientRequest.getLocalAddr(), clientRequest.getLocalPort(),
                name -> header(clientRequest, snapshot, name),
                () -> HeaderForwarding.accessPoints(clientRequest.getScheme(), clientRequest.getLocalPort())));
    }

    private static String header(HttpServletRequest clientRequest, DispatcherState snapshot, String name) {
        if (name.equalsIgnoreCase(Modification.TARGET_SID_HEADER)) {
            return trusted(clientRequest, snapshot) ? clientRequest.getHeader(name) : null;
        }
        String value = clientRequest.getHeader(name);
        return value == null && name.equalsIgnoreCase("Host")
                ? clientRequest.getServerName() + ":" + clientRequest.getServerPort() : value;
    }

    /** Whether the client is a trusted proxy ({@code jwd.trusted_proxies}), whose forwarding headers count. */
    static boolean trusted(HttpServletRequest clientRequest, DispatcherState snapshot) {
        return snapshot.config().forwarding().trustedProxies().trusts(clientRequest.getRemoteAddr());
    }
}
