package org.jwd.proxy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import javax.net.ssl.SSLException;

import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.ee10.proxy.AsyncProxyServlet;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ClientConnector;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.DispatcherState;
import org.jwd.accesslog.RequestEnds;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.health.HealthChecker;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.ServerSlots;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.tls.TlsConfig;
import org.jwd.tls.TlsPolicy;

/**
 * The dispatcher's servlet: a thin layer over Jetty's asynchronous proxy servlet (no thread is held while a
 * slow client or server trickles bytes). Each hook hands off to the {@link org.jwd.routing.Router}: the
 * routing decision is made once, kept as a request attribute, and read by the later hooks.
 */
public class DispatcherServlet extends AsyncProxyServlet {
    private static final String DECISION_ATTRIBUTE = RoutingDecision.class.getName();
    private static final String FAILURE_ATTRIBUTE = DispatcherServlet.class.getName() + ".failure";
    private static final String RETRIED_ATTRIBUTE = DispatcherServlet.class.getName() + ".retried";
    private static final String CLIENT_FAILURE_ATTRIBUTE = DispatcherServlet.class.getName() + ".clientFailure";
    private static final String START_ATTRIBUTE = DispatcherServlet.class.getName() + ".start";
    /** The {@link ServerSlots} whose slot the request holds, until its exchange with the server is over. */
    private static final String SLOT_ATTRIBUTE = DispatcherServlet.class.getName() + ".slot";
    /** Set when the request was answered 503 for want of a slot: no later failure may answer it again. */
    private static final String REFUSED_ATTRIBUTE = DispatcherServlet.class.getName() + ".refused";
    /** The configuration, topology and router the request was routed with: one request, one configuration. */
    private static final String SNAPSHOT_ATTRIBUTE = DispatcherState.class.getName();
    /**
     * Removed from what the client sent, then set by jwd: a server would believe a client's values. Only a
     * trusted proxy's X-Forwarded-For/-Proto/-Host/-Port survive, through {@link ForwardedHeaders}.
     */
    private static final List<HttpHeader> FORWARDING_HEADERS = List.of(HttpHeader.X_FORWARDED_FOR,
            HttpHeader.X_FORWARDED_PROTO, HttpHeader.X_FORWARDED_HOST, HttpHeader.X_FORWARDED_SERVER,
            HttpHeader.X_FORWARDED_PORT, HttpHeader.FORWARDED);
    /** A server whose TLS fails is named in the log at most this often (each request still gets its 502). */
    private static final long TLS_WARNING_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private Dispatcher dispatcher;
    private RequestEnds ends;
    /** server id -> System.nanoTime() of the last warning about its TLS */
    private final Map<String, Long> tlsWarnings = new ConcurrentHashMap<>();

    @Override
    public void init() throws ServletException {
        dispatcher = (Dispatcher) getServletContext().getAttribute(Dispatcher.ATTRIBUTE);
        if (dispatcher == null) {
            throw new UnavailableException("jwd: no dispatcher: the configuration was not loaded");
        }
        ends = new RequestEnds(dispatcher.accessLog(), dispatcher.metrics());
        super.init();
    }

    @Override
    protected HttpClient createHttpClient() throws ServletException {
        HttpClient client = super.createHttpClient();
        DispatcherConfig config = dispatcher.config();
        client.setConnectTimeout(config.connectTimeout().toMillis());
        client.setIdleTimeout(config.idleTimeout().toMillis());
        setTimeout(config.requestTimeout().toMillis());
        // A header jwd lets through (jwd.max_header_size) must fit into the request it forwards; the client's
        // own bound (8 KB) would fail it with 502. Plus room for the X-Forwarded-* headers jwd adds.
        client.setMaxRequestHeadersSize(Math.max(client.getMaxRequestHeadersSize(),
                dispatcher.state().limits().maxHeaderSize() + 4096));
        return client;
    }

    /** Re-encryption: the servers' certificates are checked against the truststore and their host names. */
    @Override
    protected ClientConnector newClientConnector() {
        ClientConnector connector = super.newClientConnector();
        TlsConfig tls = dispatcher.tls();
        try {
            connector.setSslContextFactory(TlsPolicy.towardsServers(tls));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("jwd: cannot open " + TlsConfig.TRUSTSTORE + " " + tls.trustStore(), e);
        }
        if (!tls.verifyHostname()) {
            _log.warn("jwd: {}=false: a server's certificate need not name the host of its https_url",
                    TlsConfig.VERIFY_HOSTNAME);
        }
        return connector;
    }

    @Override
    protected void service(HttpServletRequest clientRequest, HttpServletResponse proxyResponse)
            throws ServletException, IOException {
        long start = System.nanoTime();
        // one state for the whole request: its limits, its routing and its slot come from one configuration
        DispatcherState snapshot = dispatcher.state();
        if (RequestLimits.refuse(clientRequest, proxyResponse, dispatcher, snapshot.limits())) {
            return;
        }
        RequestEnds.arrived(clientRequest, start);
        RoutingDecision decision = snapshot.router().route(routingRequest(clientRequest));
        if (decision.isRejected()) {
            // counted before the answer goes out, so that a client holding its answer finds it counted
            dispatcher.metrics().requestCompleted(decision.group(), null, decision.errorStatus(),
                    System.nanoTime() - start);
            sendText(proxyResponse, decision.errorStatus(), decision.errorMessage());
            ends.completed(clientRequest, decision, decision.errorStatus(), false, 0);
            return;
        }
        clientRequest.setAttribute(DECISION_ATTRIBUTE, decision);
        clientRequest.setAttribute(SNAPSHOT_ATTRIBUTE, snapshot);
        clientRequest.setAttribute(START_ATTRIBUTE, start);
        try {
            super.service(clientRequest, proxyResponse);
        } catch (ServletException | IOException | RuntimeException e) {
            releaseSlot(clientRequest);
            decision.finish(true);
            completed(clientRequest, decision, HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            throw e;
        }
    }

    /** Counts the request's answer in the metrics, with the time since it was routed, and logs it. */
    private void completed(HttpServletRequest clientRequest, RoutingDecision decision, int status) {
        completed(clientRequest, decision, status, false);
    }

    private void completed(HttpServletRequest clientRequest, RoutingDecision decision, int status, boolean answered) {
        long nanos = clientRequest.getAttribute(START_ATTRIBUTE) instanceof Long start ? System.nanoTime() - start : 0;
        dispatcher.metrics().requestCompleted(decision.group(), decision.server(), status, nanos);
        ends.completed(clientRequest, decision, status, answered,
                clientRequest.getAttribute(RETRIED_ATTRIBUTE) == null ? 0 : 1);
    }

    private static RoutingRequest routingRequest(HttpServletRequest clientRequest) {
        return new RoutingRequest(clientRequest.getMethod(), clientRequest.getRequestURI(),
                clientRequest.getQueryString(), Collections.list(clientRequest.getHeaders("Cookie")),
                clientRequest.isSecure());
    }

    /**
     * Sends the request once its server has a free connection slot ({@code server.<id>.max_connections}): at
     * once, or when a request ahead of it ends; a full queue or a wait past {@code jwd.queue_timeout} gets 503.
     * While it waits no thread is held and at most one buffer of its body is read.
     */
    @Override
    protected void sendProxyRequest(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                    Request proxyRequest) {
        ServerSlots slots = decision(clientRequest).server().slots();
        ServerSlots.Waiter waiter = () -> {
            clientRequest.setAttribute(SLOT_ATTRIBUTE, slots);
            RequestEnds.sent(clientRequest);
            super.sendProxyRequest(clientRequest, proxyResponse, proxyRequest);
        };
        Duration queueTimeout = snapshot(clientRequest).limits().queueTimeout();
        switch (slots.acquire(waiter)) {
            case ADMITTED -> waiter.admitted();
            case QUEUED -> getHttpClient().getScheduler().schedule(() -> {
                if (slots.abandon(waiter, true)) {
                    refuseForSlots(clientRequest, proxyResponse, proxyRequest, "waited "
                            + Durations.format(queueTimeout) + " (" + LimitsConfig.QUEUE_TIMEOUT
                            + ") in the queue for a connection slot");
                }
            }, queueTimeout.toMillis(), TimeUnit.MILLISECONDS);
            case REJECTED -> refuseForSlots(clientRequest, proxyResponse, proxyRequest,
                    "has all its connection slots taken and its queue full");
        }
    }

    /** 503 for a request that got no connection slot; the server never saw it. */
    private void refuseForSlots(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                Request proxyRequest, String what) {
        RoutingDecision decision = decision(clientRequest);
        ServerSlots slots = decision.server().slots();
        decision.finish(false);
        completed(clientRequest, decision, HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        clientRequest.setAttribute(REFUSED_ATTRIBUTE, Boolean.TRUE);
        try {
            if (hasContent(clientRequest)) {
                // The body is not read: the connection cannot carry another request.
                proxyResponse.setHeader("Connection", "close");
            }
            sendText(proxyResponse, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "jwd: server "
                    + decision.server().id() + " " + what + " (server." + decision.server().id() + "."
                    + slots.describe().replace(", max_queue", ", server." + decision.server().id() + ".max_queue")
                    + ")");
        } catch (IOException | IllegalStateException e) {
            _log.debug("cannot send the 503 answer", e);
        } finally {
            if (clientRequest.isAsyncStarted()) {
                clientRequest.getAsyncContext().complete();
            }
            // Stops reading the body, if any: nothing goes to the server.
            proxyRequest.abort(new IllegalStateException("no connection slot"));
        }
    }

    /** The request's exchange with its server is over: its connection slot, if it holds one, passes on. */
    private static void releaseSlot(HttpServletRequest clientRequest) {
        if (clientRequest.getAttribute(SLOT_ATTRIBUTE) instanceof ServerSlots slots) {
            clientRequest.removeAttribute(SLOT_ATTRIBUTE);
            slots.release();
        }
    }

    @Override
    protected String rewriteTarget(HttpServletRequest clientRequest) {
        return decision(clientRequest).target();
    }

    @Override
    protected void addProxyHeaders(HttpServletRequest clientRequest, Request proxyRequest) {
        addViaHeader(clientRequest, proxyRequest);
        String host = clientRequest.getHeader("Host");
        if (host == null && "HTTP/2.0".equals(clientRequest.getProtocol())) {
            // HTTP/2 carries the host in its :authority pseudo-header, which is no Host header.
            host = clientRequest.getServerName() + ":" + clientRequest.getServerPort();
        }
        String peer = clientRequest.getRemoteAddr();
        boolean trusted = snapshot(clientRequest).config().trustedProxies().trusts(peer);
        ForwardedHeaders forwarded = ForwardedHeaders.of(trusted, peer,
                trusted ? Collections.list(clientRequest.getHeaders("X-Forwarded-For")) : List.of(),
                trusted ? clientRequest.getHeader("X-Forwarded-Proto") : null,
                trusted ? clientRequest.getHeader("X-Forwarded-Host") : null,
                trusted ? clientRequest.getHeader("X-Forwarded-Port") : null,
                clientRequest.getScheme(), host);
        proxyRequest.headers(headers -> {
            FORWARDING_HEADERS.forEach(headers::remove);
            headers.put(HttpHeader.X_FORWARDED_FOR, forwarded.forwardedFor());
            headers.put(HttpHeader.X_FORWARDED_PROTO, forwarded.proto());
            if (forwarded.host() != null) {
                headers.put(HttpHeader.X_FORWARDED_HOST, forwarded.host());
            }
            if (forwarded.port() != null) {
                headers.put(HttpHeader.X_FORWARDED_PORT, forwarded.port());
            }
        });
    }

    /**
     * Jetty drops the hop-by-hop headers of {@link #HOP_HEADERS} both ways, and on the way to the server also
     * those the client's {@code Connection} header names; on the way back it does not look at the server's
     * {@code Connection} header. The headers it names are this hop's only: they stop here too. (Overrides the
     * {@code HttpField} variant: in Jetty 12.1.12 a {@code null} from the {@code String} variant does not drop
     * the header; ForwardedHeadersIT saw it arrive as {@code server secret, null}.)
     */
    @Override
    protected HttpField filterServerResponseHeader(HttpServletRequest clientRequest, Response serverResponse,
                                                   HttpField field) {
        HttpFields fields = serverResponse.getHeaders();
        if (fields.contains(HttpHeader.CONNECTION)) {
            for (String token : fields.getCSV(HttpHeader.CONNECTION, false)) {
                if (token.equalsIgnoreCase(field.getName())) {
                    return null;
                }
            }
        }
        return super.filterServerResponseHeader(clientRequest, serverResponse, field);
    }

    @Override
    protected void onServerResponseHeaders(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                           Response serverResponse) {
        RequestEnds.firstByte(clientRequest);
        super.onServerResponseHeaders(clientRequest, proxyResponse, serverResponse);
        RoutingDecision decision = decision(clientRequest);
        DispatcherState snapshot = snapshot(clientRequest);
        List<String> setCookies = serverResponse.getHeaders().getValuesList(HttpHeader.SET_COOKIE);
        if (!setCookies.isEmpty()) {
            snapshot.router().learn(decision, setCookies);
            String saplb = snapshot.router().saplbCookieFor(decision, setCookies, clientRequest.isSecure());
            if (saplb != null) {
                proxyResponse.addHeader("Set-Cookie", saplb);
            }
        }
        if (snapshot.config().debugHeaders()) {
            proxyResponse.setHeader("X-Jwd-Route", decision.describe());
        }
    }

    @Override
    protected void onProxyResponseSuccess(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                          Response serverResponse) {
        RoutingDecision decision = decision(clientRequest);
        releaseSlot(clientRequest);
        decision.finish(false);
        decision.server().resetFailures(overHttps(decision));
        completed(clientRequest, decision, proxyResponse.getStatus(), true);
        super.onProxyResponseSuccess(clientRequest, proxyResponse, serverResponse);
    }

    @Override
    protected void onResponseContent(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                     Response serverResponse, byte[] buffer, int offset, int length,
                                     org.eclipse.jetty.util.Callback callback) {
        RequestEnds.content(clientRequest, length);
        super.onResponseContent(clientRequest, proxyResponse, serverResponse, buffer, offset, length, callback);
    }

    @Override
    protected ReadListener newReadListener(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                           Request proxyRequest, AsyncRequestContent content) {
        // As AsyncProxyServlet reads the body, but through a stream that remembers a failure to read it (a bad
        // chunk, a reset): the proxy request then fails, and the answer must blame the client, not the server.
        // A failure on the way to the server reaches the reader too, but never through this stream.
        HttpServletRequest reading = new HttpServletRequestWrapper(clientRequest) {
            /** one for the request: it counts the body's bytes across the reader's calls */
            private ClientBodyStream body;

            @Override
            public ServletInputStream getInputStream() throws IOException {
                if (body == null) {
                    body = new ClientBodyStream(clientRequest, snapshot(clientRequest).limits().maxRequestBytes());
                }
                return body;
            }
        };
        ReadListener reader = super.newReadListener(reading, proxyResponse, proxyRequest, content);
        // The container reports a broken body to the listener it was given: this one.
        return new ReadListener() {
            @Override
            public void onDataAvailable() throws IOException {
                reader.onDataAvailable();
            }

            @Override
            public void onAllDataRead() throws IOException {
                reader.onAllDataRead();
            }

            @Override
            public void onError(Throwable failure) {
                clientRequest.setAttribute(CLIENT_FAILURE_ATTRIBUTE, failure);
                reader.onError(failure);
            }
        };
    }

    /** The client's body, noting in the request when reading it failed. */
    private static final class ClientBodyStream extends ServletInputStream {
        private final HttpServletRequest clientRequest;
        private final ServletInputStream in;
        /** icm/HTTP/max_request_size_KB in bytes, or -1 */
        private final long limit;
        private long read;

        ClientBodyStream(HttpServletRequest clientRequest, long limit) throws IOException {
            this.clientRequest = clientRequest;
            this.in = clientRequest.getInputStream();
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            try {
                int b = in.read();
                counted(b < 0 ? -1 : 1);
                return b;
            } catch (IOException | RuntimeException e) {
                clientRequest.setAttribute(CLIENT_FAILURE_ATTRIBUTE, e);
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return counted(in.read(b, off, len));
            } catch (IOException | RuntimeException e) {
                clientRequest.setAttribute(CLIENT_FAILURE_ATTRIBUTE, e);
                throw e;
            }
        }

        /** A body without Content-Length (chunked) may grow past the limit while it streams: it stops there. */
        private int counted(int n) throws RequestLimits.BodyTooLargeException {
            if (n > 0 && limit >= 0 && (read += n) > limit) {
                throw new RequestLimits.BodyTooLargeException(limit);
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }

    @Override
    protected void onClientRequestFailure(HttpServletRequest clientRequest, Request proxyRequest,
                                          HttpServletResponse proxyResponse, Throwable failure) {
        // The client's body broke (a bad chunk, a reset): the proxy request is aborted, and the answer
        // must blame the client, not the server.
        clientRequest.setAttribute(CLIENT_FAILURE_ATTRIBUTE, failure);
        super.onClientRequestFailure(clientRequest, proxyRequest, proxyResponse, failure);
    }

    @Override
    protected int clientRequestStatus(Throwable failure) {
        // The failure's classes come from the server's class loader, not the webapp's: match on nothing
        // but the timeout; a client that sent a broken body made a bad request.
        return failure instanceof TimeoutException ? HttpServletResponse.SC_REQUEST_TIMEOUT
                : failure instanceof RequestLimits.BodyTooLargeException ? HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE
                : HttpServletResponse.SC_BAD_REQUEST;
    }

    @Override
    protected void onProxyResponseFailure(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                          Response serverResponse, Throwable failure) {
        Throwable clientFailure = (Throwable) clientRequest.getAttribute(CLIENT_FAILURE_ATTRIBUTE);
        releaseSlot(clientRequest);
        decision(clientRequest).finish(clientFailure == null);
        if (clientFailure != null) {
            if (clientFailure instanceof RequestLimits.BodyTooLargeException) {
                dispatcher.metrics().limitRejected(LimitsConfig.MAX_REQUEST_SIZE);
            }
            completed(clientRequest, decision(clientRequest), clientRequestStatus(clientFailure));
            sendProxyResponseError(clientRequest, proxyResponse, clientRequestStatus(clientFailure));
            return;
        }
        RoutingDecision decision = decision(clientRequest);
        if (serverResponse == null || serverResponse.getStatus() == 0) {
            dispatcher.health().requestFailed(decision.server(), overHttps(decision), failure);
        }
        if (serverResponse != null && serverResponse.getStatus() != 0) {
            // The server broke off an answer it had begun. When part of it went out to the client already, the
            // client's connection is aborted below (never a clean short answer); otherwise the client gets 502.
            dispatcher.metrics().serverAborted(decision.server());
        }
        if (isTlsFailure(failure)) {
            warnAboutTls(decision, failure);
        }
        if (retryElsewhere(clientRequest, proxyResponse, serverResponse, decision, failure)) {
            return;
        }
        clientRequest.setAttribute(FAILURE_ATTRIBUTE, failure);
        completed(clientRequest, decision, proxyResponse.isCommitted() ? proxyResponse.getStatus()
                : failure instanceof TimeoutException ? HttpServletResponse.SC_GATEWAY_TIMEOUT
                : HttpServletResponse.SC_BAD_GATEWAY);
        super.onProxyResponseFailure(clientRequest, proxyResponse, serverResponse, failure);
    }

    /**
     * Sends a failed request once more, to wherever routing sends it now, when that cannot do harm and nothing of
     * its answer went out: it has no body to replay, and either the server refused the connection (it never saw
     * the request; it is down by then, so a session bound to it is rebound by the session table's rules) or the
     * request is idempotent and the server gave no byte of an answer (a server killed with the request on a
     * pooled connection, as nginx's {@code proxy_next_upstream error} does). Never after a timeout (the client has
     * waited long enough: 504) or a TLS failure (a certificate jwd refuses is an answer in itself). Nothing a
     * client could have been served is lost.
     */
    private boolean retryElsewhere(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                   Response serverResponse, RoutingDecision failed, Throwable failure) {
        boolean noAnswer = serverResponse == null || serverResponse.getStatus() == 0;
        boolean harmless = HealthChecker.isRefused(failure) || (noAnswer && isIdempotent(clientRequest.getMethod())
                && !(failure instanceof TimeoutException) && !isTlsFailure(failure));
        if (!harmless || proxyResponse.isCommitted() || hasContent(clientRequest)
                || clientRequest.getAttribute(RETRIED_ATTRIBUTE) != null) {
            return false;
        }
        DispatcherState snapshot = dispatcher.state();
        RoutingDecision retry = snapshot.router().route(routingRequest(clientRequest), failed.server());
        if (retry.isRejected() || retry.server() == failed.server()) {
            retry.finish(false);
            return false;
        }
        clientRequest.setAttribute(RETRIED_ATTRIBUTE, failed.server().id());
        clientRequest.setAttribute(DECISION_ATTRIBUTE, retry);
        clientRequest.setAttribute(SNAPSHOT_ATTRIBUTE, snapshot);
        Request proxyRequest = newProxyRequest(clientRequest, retry.target());
        copyRequestHeaders(clientRequest, proxyRequest);
        addProxyHeaders(clientRequest, proxyRequest);
        proxyRequest.timeout(getTimeout(), TimeUnit.MILLISECONDS);
        sendProxyRequest(clientRequest, proxyResponse, proxyRequest);
        return true;
    }

    /** RFC 9110's idempotent methods: sending one twice has the effect of sending it once. */
    private static boolean isIdempotent(String method) {
        return switch (method) {
            case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE" -> true;
            default -> false;
        };
    }

    @Override
    protected void sendProxyResponseError(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                          int status) {
        if (clientRequest.getAttribute(REFUSED_ATTRIBUTE) != null) {
            return;
        }
        if (proxyResponse.isCommitted()) {
            // Part of the answer is on its way: the only honest signal left is to abort the connection.
            super.sendProxyResponseError(clientRequest, proxyResponse, status);
            return;
        }
        RoutingDecision decision = decision(clientRequest);
        Throwable failure = (Throwable) clientRequest.getAttribute(FAILURE_ATTRIBUTE);
        String server = decision == null || decision.server() == null ? "the server"
                : "server " + decision.server().id() + " (" + origin(decision) + ")";
        String message = switch (status) {
            case HttpServletResponse.SC_GATEWAY_TIMEOUT -> "jwd: " + server + " did not answer within "
                    + Durations.format(snapshot(clientRequest).config().requestTimeout()) + " (jwd.request_timeout)";
            case HttpServletResponse.SC_BAD_GATEWAY -> "jwd: " + server + " failed: " + describe(failure);
            case HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE -> RequestLimits.bodyTooLarge(
                    snapshot(clientRequest).limits().maxRequestBytes());
            default -> status < 500 ? "jwd: the request could not be read: " + describe(
                    (Throwable) clientRequest.getAttribute(CLIENT_FAILURE_ATTRIBUTE))
                    : "jwd: the request to " + server + " failed with status " + status;
        };
        try {
            proxyResponse.resetBuffer();
            if (status == HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE) {
                // The rest of the body stays unread: the connection cannot carry another request.
                proxyResponse.setHeader("Connection", "close");
            }
            sendText(proxyResponse, status, message);
        } catch (IOException | IllegalStateException e) {
            _log.debug("cannot send the error answer", e);
        } finally {
            if (clientRequest.isAsyncStarted()) {
                clientRequest.getAsyncContext().complete();
            }
        }
    }

    private static String describe(Throwable failure) {
        if (failure == null) {
            return "no answer";
        }
        if (failure instanceof TimeoutException) {
            return "timed out";
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (isTlsFailure(failure)) {
            // Never retried over plain HTTP: a certificate jwd does not accept is an answer in itself.
            return "TLS handshake failed: " + text + " (its certificate is checked against "
                    + TlsConfig.TRUSTSTORE + " and, unless " + TlsConfig.VERIFY_HOSTNAME + "=false, must name the"
                    + " host of its https_url)";
        }
        if (root instanceof java.io.EOFException) {
            // Jetty's message would be its connection's whole state.
            return "it closed the connection before its answer was complete";
        }
        return root instanceof java.net.ConnectException ? "connection refused (" + text + ")" : text;
    }

    private static boolean isTlsFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /** Names the server whose TLS failed, once a minute at most: a bad certificate fails every request. */
    private void warnAboutTls(RoutingDecision decision, Throwable failure) {
        long now = System.nanoTime();
        String id = decision.server().id();
        Long last = tlsWarnings.get(id);
        if ((last == null || now - last >= TLS_WARNING_INTERVAL_NANOS)
                && (last == null ? tlsWarnings.putIfAbsent(id, now) == null : tlsWarnings.replace(id, last, now))) {
            _log.warn("jwd: TLS to server {} ({}) failed, its requests get 502: {}", id, origin(decision),
                    describe(failure));
        }
    }

    /** Where the request went: the server's https_url or url, as the decision's target says. */
    private static String origin(RoutingDecision decision) {
        try {
            URI target = URI.create(decision.target());
            return target.getScheme() + "://" + target.getRawAuthority();
        } catch (IllegalArgumentException | NullPointerException e) {
            return String.valueOf(decision.server().config().url());
        }
    }

    /** Whether the request went to the server's HTTPS port: its failures and answers count for that port. */
    private static boolean overHttps(RoutingDecision decision) {
        return decision.target().regionMatches(true, 0, "https:", 0, "https:".length());
    }

    /** The snapshot the request was routed with (the one in force for a request that was not routed). */
    private DispatcherState snapshot(HttpServletRequest clientRequest) {
        return clientRequest.getAttribute(SNAPSHOT_ATTRIBUTE) instanceof DispatcherState s ? s
                : dispatcher.state();
    }

    /** {@code jwd.request_timeout} of the configuration in force, so that a reload changes it for new requests. */
    @Override
    public long getTimeout() {
        return dispatcher == null ? super.getTimeout() : dispatcher.config().requestTimeout().toMillis();
    }

    private static RoutingDecision decision(HttpServletRequest clientRequest) {
        return (RoutingDecision) clientRequest.getAttribute(DECISION_ATTRIBUTE);
    }

    static void sendText(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
