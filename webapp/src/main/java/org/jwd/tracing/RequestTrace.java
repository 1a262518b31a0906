package org.jwd.tracing;

import org.eclipse.jetty.client.Request;
import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.jwd.systems.SystemEntry;
import org.jwd.topology.Server;

/**
 * The trace of one request, told each step of its way by the servlet; {@link #OFF} when tracing is off, whose
 * steps do nothing.
 *
 * <pre>
 * begin (server span) -> [forwarding (client span) -> answerBegins | failed -> leftServer]* -> ended
 * </pre>
 */
public interface RequestTrace {
    /** The trace of every request while tracing is off. */
    RequestTrace OFF = new RequestTrace() {
        @Override
        public String toString() {
            return "no trace";
        }
    };

    /**
     * The request is sent to {@code server} now (again, after a failure elsewhere): a client span begins, and
     * {@code proxyRequest}'s {@code traceparent} carries its context to the server.
     */
    default void forwarding(Request proxyRequest, Server server) {
    }

    /** The server's answer began with {@code status}. */
    default void answerBegins(int status) {
    }

    /** The exchange with the server failed: {@code failure}, in words {@code description}, the cause of a retry. */
    default void failed(Throwable failure, String description) {
    }

    /** The exchange with the server is over: its client span ends. */
    default void leftServer() {
    }

    /** The request was answered with {@code status}: its server span ends, with the routing decision. */
    default void ended(int status, SystemEntry system, RoutingDecision decision, Modification modification) {
    }
}
