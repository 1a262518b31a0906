package org.jwd.proxy;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.client.Request;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.DispatcherState;
import org.jwd.limits.ServerSlots;
import org.jwd.metrics.DispatcherMetrics;
import org.jwd.modification.Modification;
import org.jwd.routing.Router;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.systems.Selection;
import org.jwd.systems.SystemEntry;
import org.jwd.topology.Server;
import org.jwd.tracing.RequestTrace;

/**
 * One request on its way through the dispatcher, kept in one request attribute from its routing to its end: the
 * snapshot and decision it was routed with (replaced when it is retried elsewhere), the connection slot it holds,
 * what failed, its times. It ends exactly once, whichever of Jetty's hooks reports the end: its server learns the
 * request is over, its slot passes on, the metrics count it, the access log writes its line and its trace ends.
 *
 * <pre>
 * route -> admitted (holds a slot) -> [leaveServer on a failure -> route again elsewhere] -> end(status)
 * </pre>
 */
final class Exchange {
    private static final String ATTRIBUTE = Exchange.class.getName();

    private final HttpServletRequest clientRequest;
    private final DispatcherMetrics metrics;
    private final RequestEnds ends;
    private final long arrivedNanos;
    private final RequestEnds.Timing timing;
    private final RequestTrace trace;
    private volatile DispatcherState snapshot;
    /** The request's system, chosen once: a retry stays in it. */
    private volatile SystemEntry system = SystemEntry.implicit();
    private volatile RoutingDecision decision;
    /** made once by {@link #routingRequest()}: the route and a retry read the same, normalized once */
    private volatile RoutingRequest routingRequest;
    /** what the modification handler did to the request, before anything else of its way */
    private volatile Modification modification = Modification.NONE;
    /** the decision whose server has not been told of the request's end yet */
    private final AtomicReference<RoutingDecision> onServer = new AtomicReference<>();
    private final AtomicReference<ServerSlots> slot = new AtomicReference<>();
    private final AtomicReference<Throwable> clientFailure = new AtomicReference<>();
    private volatile Throwable serverFailure;
    private volatile boolean retried;
    /** answered 503 for want of a slot: no later failure may answer it again */
    private volatile boolean refused;
    private final AtomicBoolean ended = new AtomicBoolean();

    private Exchange(HttpServletRequest clientRequest, long arrivedNanos, DispatcherMetrics metrics, RequestEnds ends) {
        this.clientRequest = clientRequest;
        this.arrivedNanos = arrivedNanos;
        this.timing = new RequestEnds.Timing(arrivedNanos);
        this.metrics = metrics;
        this.ends = ends;
        this.trace = ends.trace(clientRequest);
    }

    /**
     * Checks the request against the limits and routes it, once, keeping its exchange in the request.
     *
     * @return its exchange, or {@code null} when it was answered already: over a limit, or rejected by routing
     */
    static Exchange begin(HttpServletRequest clientRequest, HttpServletResponse proxyResponse, Dispatcher dispatcher,
                          RequestEnds ends) throws IOException {
        long start = System.nanoTime();
        // one state for the whole request: its limits, its routing and its slot come from one configuration
        DispatcherState state = dispatcher.state();
        if (RequestLimits.refuse(clientRequest, proxyResponse, dispatcher, state.limits())) {
            return null;
        }
        Exchange exchange = new Exchange(clientRequest, start, dispatcher.metrics(), ends);
        RoutingDecision decision = exchange.route(state);
        if (!decision.isRejected()) {
            return exchange;
        }
        // counted before the answer goes out, so that a client holding its answer finds it counted
        exchange.end(decision.errorStatus(), false, false);
        Answers.sendRefusal(proxyResponse, decision, exchange.modification, Answers.detailed(state));
        return null;
    }

    /** Jetty's own forwarding of the request. */
    @FunctionalInterface
    interface Forwarding {
        void run() throws ServletException, IOException;
    }

    /** Forwards the request; when jwd fails at it, the request ends with 500 before the failure goes on. */
    void forward(Forwarding forwarding) throws ServletException, IOException {
        try {
            forwarding.run();
        } catch (ServletException | IOException | RuntimeException e) {
            end(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, true, false);
            throw e;
        }
    }

    /** The exchange of a request that {@link #begin} routed; {@code null} for any other. */
    static Exchange of(HttpServletRequest clientRequest) {
        return (Exchange) clientRequest.getAttribute(ATTRIBUTE);
    }

    /**
     * Applies the modification handler, then selects the request's system and routes it with that system's router,
     * both reading the URL as the handler left it; no system: 404 naming why. A redirect or refusal of the handler
     * goes to no system and no server.
     */
    private RoutingDecision route(DispatcherState snapshot) {
        RoutingRequest request = modify(snapshot, routingRequest());
        RoutingDecision routed;
        if (modification.answered()) {
            routed = RoutingDecision.reject(modification.status(), modification.message(),
                    request.path() == null ? request.rawPath() : request.path().path(), null, modification.describe());
            follow(snapshot, routed);
            clientRequest.setAttribute(ATTRIBUTE, this);
            return decision;
        }
        // without systems nothing to select: the connection's address and the Host are not even looked at
        Selection selection = !snapshot.hasSystems() ? DispatcherState.IMPLICIT
                : snapshot.select(clientRequest.getLocalAddr(), clientRequest.getLocalPort(), host(snapshot), request,
                        modification.targetSid());
        if (selection.found()) {
            system = selection.system();
            routed = snapshot.router(system).route(request);
        } else {
            routed = RoutingDecision.reject(HttpServletResponse.SC_NOT_FOUND, "jwd: " + selection.explanation(),
                    request.rawPath(), null, "no system");
        }
        follow(snapshot, routed);
        clientRequest.setAttribute(ATTRIBUTE, this);
        return decision;
    }

    /**
     * The modification handler's work on {@code original} ({@code icm/HTTP/mod_<xx>}); the request as routing reads
     * it afterwards, kept for a retry. A path that does not normalize is left to routing, which answers it 400.
     */
    private RoutingRequest modify(DispatcherState snapshot, RoutingRequest original) {
        if (original.path() == null) {
            return original;
        }
        modification = RequestModification.apply(clientRequest, snapshot, original);
        routingRequest = DispatcherState.modified(original, modification);
        return routingRequest;
    }

    /** Whether the client is a trusted proxy ({@code jwd.trusted_proxies}), whose forwarding headers count. */
    boolean trustedPeer(DispatcherState snapshot) {
        return RequestModification.trusted(clientRequest, snapshot);
    }

    /**
     * The host the client asked for: a trusted proxy's {@code X-Forwarded-Host}, else the {@code Host} header, else
     * (HTTP/2 without one) the {@code :authority}, which Jetty reports as the server name and port.
     */
    private String host(DispatcherState state) {
        String forwarded = clientRequest.getHeader("X-Forwarded-Host");
        if (forwarded != null && trustedPeer(state)) {
            return forwarded;
        }
        String host = clientRequest.getHeader("Host");
        return host != null ? host : clientRequest.getServerName() + ":" + clientRequest.getServerPort();
    }

    /**
     * Routes the request again, avoiding the server that failed it ({@link #leaveServer} was called).
     *
     * @return whether it goes to another server now
     */
    boolean rerouted(DispatcherState next) {
        Server failed = decision.server();
        Router router = next.router(system);
        if (router == null) {
            return false;
        }
        RoutingDecision retry = router.route(routingRequest(), failed);
        if (retry.isRejected() || retry.server() == failed) {
            retry.finish(false);
            return false;
        }
        retried = true;
        follow(next, retry);
        return true;
    }

    private void follow(DispatcherState routedWith, RoutingDecision routed) {
        snapshot = routedWith;
        decision = routed;
        onServer.set(routed.server() == null ? null : routed);
    }

    /** The request as routing reads it, made once (its path normalized once) and kept for a retry. */
    private RoutingRequest routingRequest() {
        if (routingRequest == null) {
            routingRequest = RoutingRequest.of(clientRequest.getMethod(), clientRequest.getRequestURI(),
                    clientRequest.getQueryString(), Collections.list(clientRequest.getHeaders("Cookie")),
                    clientRequest.isSecure());
        }
        return routingRequest;
    }

    /** It holds a slot of {@code slots} now and is sent to its server as {@code proxyRequest}. */
    void admitted(ServerSlots slots, Request proxyRequest) {
        slot.set(slots);
        timing.sent();
        trace.forwarding(proxyRequest, decision.server());
    }

    /** The exchange with its server is over: its slot passes on and the server counts the request's end, once. */
    void leaveServer(boolean failed) {
        ServerSlots held = slot.getAndSet(null);
        if (held != null) {
            held.release();
        }
        RoutingDecision left = onServer.getAndSet(null);
        if (left != null) {
            left.finish(failed);
            trace.leftServer();
        }
    }

    /**
     * Ends the request with {@code status}, once: later calls do nothing.
     *
     * @param failed   whether its server failed it
     * @param answered whether the server's answer came complete
     */
    void end(int status, boolean failed, boolean answered) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        leaveServer(failed);
        if (decision.server() != null) {
            // a complete answer is the server's own; any other end's 502, 503 or 504 is jwd's, for the server
            decision.server().traffic().ended(status, answered, timing.received(), timing.bytes());
        }
        metrics.requestCompleted(system.sid(), decision.group(), decision.server(), status,
                System.nanoTime() - arrivedNanos);
        ends.completed(clientRequest, timing, decision, modification.answered() ? null : modification.describe(),
                status, answered, retried ? 1 : 0);
        trace.ended(status, system, decision, modification);
    }

    /** The server's answer has begun: learns from its cookies, adds the saplb cookie and the debug header. */
    void answerBegins(HttpServletResponse proxyResponse, List<String> setCookieHeaders) {
        trace.answerBegins(proxyResponse.getStatus());
        String saplb = snapshot.router(system).sessionLearning().answered(decision.server(), setCookieHeaders,
                clientRequest.isSecure());
        if (saplb != null) {
            proxyResponse.addHeader("Set-Cookie", saplb);
        }
        if (snapshot.config().forwarding().debugHeaders()) {
            String modified = modification.describe();
            proxyResponse.setHeader("X-Jwd-Route", (system.isImplicit() ? decision.describe()
                    : "system=" + system.sid() + "; " + decision.describe()) + (modified == null ? "" : "; " + modified));
        }
    }

    /** Its server answered it completely, with {@code status}: the failures its port counted were not in a row. */
    void answered(int status) {
        decision.server().resetFailures(overHttps());
        end(status, false, true);
    }

    HttpServletRequest clientRequest() {
        return clientRequest;
    }

    RequestEnds.Timing timing() {
        return timing;
    }

    DispatcherState snapshot() {
        return snapshot;
    }

    RoutingDecision decision() {
        return decision;
    }

    /** What the modification handler did to the request. */
    Modification modification() {
        return modification;
    }

    /** Reading the client's body failed: the answer blames the client. The first failure is the cause. */
    void clientFailed(Throwable failure) {
        clientFailure.compareAndSet(null, failure);
    }

    Throwable clientFailure() {
        return clientFailure.get();
    }

    void serverFailed(Throwable failure) {
        serverFailure = failure;
    }

    /** The exchange with its server failed ({@code failure}, in words {@code description}): its trace learns why. */
    void attemptFailed(Throwable failure, String description) {
        trace.failed(failure, description);
    }

    Throwable serverFailure() {
        return serverFailure;
    }

    boolean retried() {
        return retried;
    }

    void refused() {
        refused = true;
    }

    boolean isRefused() {
        return refused;
    }

    /** Whether the request went to the server's HTTPS port: its failures and answers count for that port. */
    boolean overHttps() {
        return decision.target().regionMatches(true, 0, "https:", 0, "https:".length());
    }
}
