package org.jwd.proxy;

import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.client.Request;
import org.jwd.modification.HeaderEdit;
import org.jwd.modification.Modification;

/**
 * The modification handler's header changes ({@code icm/HTTP/mod_<xx>}): on the request to the server, after jwd's
 * own forwarding headers, so that an administrator's rule has the last word; and on the server's answer to the
 * client. The system a client names ({@code x-sap-webdisp-target-sid}) reaches no server unless a trusted proxy sent
 * it or a rule set it.
 */
final class ModifiedHeaders {
    private ModifiedHeaders() {
    }

    static void toServer(Exchange exchange, Request proxyRequest) {
        Modification modification = exchange.modification();
        boolean untrustedSid = exchange.clientRequest().getHeader(Modification.TARGET_SID_HEADER) != null
                && !exchange.trustedPeer(exchange.snapshot());
        if (modification.requestHeaders().isEmpty() && !untrustedSid) {
            return;
        }
        proxyRequest.headers(headers -> {
            if (untrustedSid) {
                headers.remove(Modification.TARGET_SID_HEADER);
            }
            for (HeaderEdit edit : modification.requestHeaders()) {
                headers.remove(edit.name());
                if (edit.value() != null) {
                    headers.put(edit.name(), edit.value());
                }
            }
        });
    }

    /** The response rules, in their order, each on the header as the server (or an earlier rule) left it. */
    static void toClient(Exchange exchange, HttpServletResponse proxyResponse) {
        for (HeaderEdit edit : exchange.modification().responseHeaders()) {
            // setHeader with null removes every value of the header
            proxyResponse.setHeader(edit.name(), edit.applyTo(proxyResponse.getHeader(edit.name())));
        }
    }
}
