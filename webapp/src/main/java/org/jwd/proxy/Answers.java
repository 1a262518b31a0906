package org.jwd.proxy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.http.HttpStatus;
import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.jwd.runtime.ConfigReader;
import org.jwd.runtime.DispatcherState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answers jwd gives itself: one line of plain text naming what was wrong; for a 5xx, with
 * {@code is/HTTP/show_detailed_errors=false}, its status alone, so that no server, group or cause reaches the client.
 */
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
     * What the client reads of an answer with {@code status} whose details are {@code message}: all of it, or with
     * {@code detailed} false a 5xx's status line alone ({@code jwd: 502 Bad Gateway}). A 4xx is about the client's
     * own request and keeps its reason.
     */
    static String shown(int status, String message, boolean detailed) {
        return detailed || status < 500 ? message : "jwd: " + status + " " + HttpStatus.getMessage(status);
    }

    /** Whether the configuration in force lets jwd's answers name servers, groups and causes. */
    static boolean detailed(DispatcherState state) {
        return state.config().sections().find(ConfigReader.ErrorDetailSection.class)
                .map(ConfigReader.ErrorDetailSection::detailed).orElse(true);
    }

    /**
     * jwd's own answer to a request it sends to no server: the routing decision's error, or the modification
     * handler's redirect (its status and {@code Location}).
     */
    static void sendRefusal(HttpServletResponse response, RoutingDecision decision, Modification modification,
                            boolean detailed) throws IOException {
        String location = modification.answered() ? modification.location() : null;
        if (location != null) {
            response.setHeader("Location", location);
        }
        sendText(response, decision.errorStatus(), location != null ? "jwd: redirected to " + location
                : shown(decision.errorStatus(), decision.errorMessage(), detailed));
    }

    /**
     * Answers a request whose exchange with a server ended without an answer, and completes it.
     *
     * @param bodyUnread the rest of the request's body stays unread: the connection cannot carry another request
     * @param detailed   whether the client reads the message or, for a 5xx, the status alone ({@link #shown})
     */
    static void sendAndComplete(HttpServletRequest clientRequest, HttpServletResponse proxyResponse, int status,
                                String message, boolean bodyUnread, boolean detailed) {
        try {
            proxyResponse.resetBuffer();
            if (bodyUnread) {
                proxyResponse.setHeader("Connection", "close");
            }
            sendText(proxyResponse, status, shown(status, message, detailed));
        } catch (IOException | IllegalStateException e) {
            LOG.debug("cannot send the {} answer", status, e);
        } finally {
            if (clientRequest.isAsyncStarted()) {
                clientRequest.getAsyncContext().complete();
            }
        }
    }
}
