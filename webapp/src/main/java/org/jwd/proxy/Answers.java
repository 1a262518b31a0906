package org.jwd.proxy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The answers jwd gives itself: one line of plain text naming what was wrong. */
final class Answers {
    private static final Logger LOG = LoggerFactory.getLogger(Answers.class);

    private Answers() {
    }

    static void sendText(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /**
     * jwd's own answer to a request it sends to no server: the routing decision's error, or the modification
     * handler's redirect (its status and {@code Location}).
     */
    static void sendRefusal(HttpServletResponse response, RoutingDecision decision, Modification modification)
            throws IOException {
        String location = modification.answered() ? modification.location() : null;
        if (location != null) {
            response.setHeader("Location", location);
        }
        sendText(response, decision.errorStatus(), location != null ? "jwd: redirected to " + location
                : decision.errorMessage());
    }

    /**
     * Answers a request whose exchange with a server ended without an answer, and completes it.
     *
     * @param bodyUnread the rest of the request's body stays unread: the connection cannot carry another request
     */
    static void sendAndComplete(HttpServletRequest clientRequest, HttpServletResponse proxyResponse, int status,
                                String message, boolean bodyUnread) {
        try {
            proxyResponse.resetBuffer();
            if (bodyUnread) {
                proxyResponse.setHeader("Connection", "close");
            }
            sendText(proxyResponse, status, message);
        } catch (IOException | IllegalStateException e) {
            LOG.debug("cannot send the {} answer", status, e);
        } finally {
            if (clientRequest.isAsyncStarted()) {
                clientRequest.getAsyncContext().complete();
            }
        }
    }
}
