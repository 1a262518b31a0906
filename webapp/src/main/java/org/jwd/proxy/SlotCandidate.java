package org.jwd.proxy;

import java.time.Duration;

import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.client.Request;
import org.jwd.limits.ConnectionSlots;
import org.jwd.limits.ServerSlots;
import org.jwd.limits.SlotAdmission;

/**
 * A request asking its server for a connection slot: once admitted it is sent; refused, it gets its 503 and its
 * proxy request is aborted, so that nothing of it reaches the server.
 */
final class SlotCandidate implements SlotAdmission.Candidate {
    private final Exchange exchange;
    private final HttpServletResponse proxyResponse;
    private final Request proxyRequest;
    private final boolean hasBody;
    private final Runnable send;

    /** @param send sends the proxy request to the server (Jetty's own {@code sendProxyRequest}) */
    SlotCandidate(Exchange exchange, HttpServletResponse proxyResponse, Request proxyRequest, boolean hasBody,
                  Runnable send) {
        this.exchange = exchange;
        this.proxyResponse = proxyResponse;
        this.proxyRequest = proxyRequest;
        this.hasBody = hasBody;
        this.send = send;
    }

    /** Asks for one of the slots of the exchange's server, waiting at most {@code queueTimeout}. */
    void ask(SlotAdmission admission, ConnectionSlots slots, Duration queueTimeout) {
        String server = exchange.decision().server().id();
        admission.admit(server, slots.of(server), queueTimeout, this);
    }

    @Override
    public void admitted(ServerSlots slots) {
        exchange.admitted(slots, proxyRequest);
        send.run();
    }

    @Override
    public void refused(String message) {
        exchange.refused();
        exchange.end(HttpServletResponse.SC_SERVICE_UNAVAILABLE, false, false);
        // The body, if any, is not read: the connection cannot carry another request.
        Answers.sendAndComplete(exchange.clientRequest(), proxyResponse, HttpServletResponse.SC_SERVICE_UNAVAILABLE, message,
                hasBody, Answers.detailed(exchange.snapshot()));
        // Stops reading the body, if any: nothing goes to the server.
        proxyRequest.abort(new IllegalStateException("no connection slot"));
    }
}
