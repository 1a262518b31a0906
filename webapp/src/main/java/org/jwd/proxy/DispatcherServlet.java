package org.jwd.proxy;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.ee10.proxy.AsyncProxyServlet;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.Callback;
import org.jwd.runtime.Dispatcher;
import org.jwd.tls.ClientTls;
import org.jwd.limits.SlotAdmission;
import org.jwd.limits.SlowClients;

/**
 * The dispatcher's servlet over Jetty's asynchronous proxy servlet (no thread waits while bytes trickle): each hook
 * hands off to one collaborator, mostly the request's {@link Exchange}.
 */
public class DispatcherServlet extends AsyncProxyServlet {
    private Dispatcher dispatcher;
    private ClientTls clientTls;
    private RequestEnds ends;
    private Failures failures;
    private SlotAdmission admission;

    @Override
    public void init() throws ServletException {
        dispatcher = (Dispatcher) getServletContext().getAttribute(Dispatcher.ATTRIBUTE);
        clientTls = (ClientTls) getServletContext().getAttribute(ClientTls.ATTRIBUTE);
        if (dispatcher == null || clientTls == null) {
            throw new UnavailableException("jwd: no dispatcher: the configuration was not loaded");
        }
        ends = new RequestEnds(dispatcher.accessLog(), dispatcher.metrics());
        failures = new Failures(dispatcher);
        super.init();
        admission = new SlotAdmission(ProxyClient.timer(getHttpClient()));
    }

    @Override
    protected HttpClient createHttpClient() throws ServletException {
        return ProxyClient.configure(super.createHttpClient(), dispatcher);
    }

    @Override
    protected ClientConnector newClientConnector() {
        return ProxyClient.secure(ProxyClient.pooled(super.newClientConnector()), clientTls, dispatcher.tls());
    }

    @Override
    protected void service(HttpServletRequest clientRequest, HttpServletResponse proxyResponse)
            throws ServletException, IOException {
        Exchange exchange = Exchange.begin(clientRequest, proxyResponse, dispatcher, ends);
        if (exchange != null) {
            exchange.forward(() -> super.service(clientRequest, proxyResponse));
        }
    }

    @Override
    protected String rewriteTarget(HttpServletRequest clientRequest) {
        return Exchange.of(clientRequest).decision().target();
    }

    @Override
    protected void addProxyHeaders(HttpServletRequest clientRequest, Request proxyRequest) {
        addViaHeader(clientRequest, proxyRequest);
        ProxyHeaders.rewrite(clientRequest, proxyRequest,
                Exchange.of(clientRequest).snapshot().config().forwarding().headers(), dispatcher.tls().clientCerts());
        ModifiedHeaders.toServer(Exchange.of(clientRequest), proxyRequest);
        if (buffersBodies(clientRequest)) {
            // jwd answered the client's Expect itself (expects100Continue): the server gets the body at once
            proxyRequest.headers(headers -> headers.remove(HttpHeader.EXPECT));
        }
    }

    /**
     * Sends the request once its body is buffered ({@link BodyBuffer}) and its server has a free connection slot;
     * without a slot it gets 503 and goes nowhere.
     */
    @Override
    protected void sendProxyRequest(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                    Request proxyRequest) {
        Exchange exchange = Exchange.of(clientRequest);
        BodyBuffer.whenReady(clientRequest, () -> new SlotCandidate(exchange, proxyResponse, proxyRequest,
                hasContent(clientRequest), () -> super.sendProxyRequest(clientRequest, proxyResponse, proxyRequest))
                .ask(admission, exchange.snapshot().slots(), exchange.snapshot().limits().queueTimeout()));
    }

    /**
     * With a body buffer, jwd answers {@code Expect: 100-continue} itself (Jetty sends the 100 when the body is first
     * read) and buffers that body as any other: otherwise such a request would take its server's connection at once
     * and hold it while the body trickled. The server is not asked for a 100 then ({@link #addProxyHeaders}).
     */
    @Override
    protected boolean expects100Continue(HttpServletRequest clientRequest) {
        return super.expects100Continue(clientRequest) && !buffersBodies(clientRequest);
    }

    private static boolean buffersBodies(HttpServletRequest clientRequest) {
        return Exchange.of(clientRequest).snapshot().config().section(SlowClients.class).buffersBodies();
    }

    @Override
    protected StreamReader newReadListener(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                           Request proxyRequest, AsyncRequestContent content) {
        return new BodyReader(clientRequest, proxyResponse, proxyRequest, content);
    }

    /**
     * Jetty's reader of the client's body; each chunk and failure seen by the request's {@link BodyCount}, and the
     * body's start kept by its {@link BodyBuffer} (none with {@code jwd.request_buffer_size=0}).
     */
    private final class BodyReader extends StreamReader {
        private final Exchange exchange;
        private final HttpServletResponse proxyResponse;
        private final Request proxyRequest;
        private final BodyCount count;
        private final BodyBuffer body;
        /** answered by jwd itself: the body failed before its request went */
        private boolean answered;

        BodyReader(HttpServletRequest clientRequest, HttpServletResponse proxyResponse, Request proxyRequest,
                   AsyncRequestContent content) {
            super(clientRequest, proxyResponse, proxyRequest, content);
            exchange = Exchange.of(clientRequest);
            this.proxyResponse = proxyResponse;
            this.proxyRequest = proxyRequest;
            SlowClients slow = exchange.snapshot().config().section(SlowClients.class);
            count = new BodyCount(exchange, exchange.snapshot().limits().maxRequestBytes(), slow.minRequestDataRate());
            body = BodyBuffer.attach(clientRequest, content, slow);
        }

        @Override
        protected void onRequestContent(HttpServletRequest clientRequest, Request proxyRequest,
                                        AsyncRequestContent content, byte[] buffer, int offset, int length,
                                        Callback callback) {
            Callback written = count.chunk(length, callback);
            if (written != null && (body == null || !body.keep(buffer, offset, length, written))) {
                super.onRequestContent(clientRequest, proxyRequest, content, buffer, offset, length, written);
            }
        }

        @Override
        public void onAllDataRead() {
            if (body != null) {
                body.complete();
            }
            super.onAllDataRead();
        }

        /**
         * Called by the container when the body broke, and by Jetty's reader for every failure it meets (so maybe
         * twice). A body that failed while buffered is answered here: its proxy request never went, and Jetty's
         * proxy, which answers a client's failure once the proxy request's abort says it was not sent, never hears
         * back from a request that was never sent.
         */
        @Override
        public synchronized void onError(Throwable failure) {
            if (answered) {
                return;
            }
            count.failed(failure);
            if (body != null && body.failed()) {
                answered = true;
                int status = FailurePolicy.clientStatus(failure);
                failures.countLimit(status, failure);
                proxyRequest.abort(failure);
                exchange.end(status, false, false);
                sendProxyResponseError(exchange.clientRequest(), proxyResponse, status);
                return;
            }
            super.onError(failure);
        }
    }

    @Override
    protected void onServerResponseHeaders(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                           Response serverResponse) {
        Exchange.of(clientRequest).timing().firstByte();
        ProxyHeaders.toClient(serverResponse.getHeaders(), proxyResponse, HOP_HEADERS,
                field -> filterServerResponseHeader(clientRequest, serverResponse, field));
        ModifiedHeaders.toClient(Exchange.of(clientRequest), proxyResponse);
        Exchange.of(clientRequest).answerBegins(proxyResponse, serverResponse.getHeaders().getValuesList("Set-Cookie"));
    }

    @Override
    protected void onResponseContent(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                     Response serverResponse, byte[] buffer, int offset, int length, Callback callback) {
        Exchange.of(clientRequest).timing().content(length);
        super.onResponseContent(clientRequest, proxyResponse, serverResponse, buffer, offset, length, callback);
    }

    @Override
    protected void onProxyResponseSuccess(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                          Response serverResponse) {
        Exchange.of(clientRequest).answered(proxyResponse.getStatus());
        super.onProxyResponseSuccess(clientRequest, proxyResponse, serverResponse);
    }

    @Override
    protected void onClientRequestFailure(HttpServletRequest clientRequest, Request proxyRequest,
                                          HttpServletResponse proxyResponse, Throwable failure) {
        Exchange.of(clientRequest).clientFailed(failure);
        super.onClientRequestFailure(clientRequest, proxyRequest, proxyResponse, failure);
    }

    @Override
    protected int clientRequestStatus(Throwable failure) {
        return FailurePolicy.clientStatus(failure);
    }

    @Override
    protected void onProxyResponseFailure(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                          Response serverResponse, Throwable failure) {
        // Not serverResponse.getStatus() alone: Jetty gives an answer it cannot parse its own 400, and none began.
        FailurePolicy.Verdict verdict = failures.handle(Exchange.of(clientRequest), failure,
                Exchange.of(clientRequest).timing().answerBegun() ? serverResponse.getStatus() : 0,
                proxyResponse.isCommitted() ? proxyResponse.getStatus() : 0, hasContent(clientRequest));
        if (verdict.retry()) {
            Request proxyRequest = newProxyRequest(clientRequest, Exchange.of(clientRequest).decision().target());
            copyRequestHeaders(clientRequest, proxyRequest);
            addProxyHeaders(clientRequest, proxyRequest);
            proxyRequest.timeout(getTimeout(), TimeUnit.MILLISECONDS);
            sendProxyRequest(clientRequest, proxyResponse, proxyRequest);
        } else if (verdict.blame() == FailurePolicy.Side.CLIENT) {
            sendProxyResponseError(clientRequest, proxyResponse, verdict.status());
        } else {
            super.onProxyResponseFailure(clientRequest, proxyResponse, serverResponse, failure);
        }
    }

    @Override
    protected void sendProxyResponseError(HttpServletRequest clientRequest, HttpServletResponse proxyResponse,
                                          int status) {
        if (proxyResponse.isCommitted() && !Exchange.of(clientRequest).isRefused()) {
            // Part of the answer is on its way: the only honest signal left is to abort the connection.
            super.sendProxyResponseError(clientRequest, proxyResponse, status);
        } else {
            failures.answer(Exchange.of(clientRequest), proxyResponse, status);
        }
    }

    /** {@code jwd.request_timeout} of the configuration in force, so that a reload changes it for new requests. */
    @Override
    public long getTimeout() {
        return dispatcher == null ? super.getTimeout() : dispatcher.config().forwarding().requestTimeout().toMillis();
    }
}
