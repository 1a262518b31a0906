package org.jwd.proxy;

import java.io.IOException;
import java.util.Enumeration;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.runtime.Dispatcher;
import org.jwd.limits.LimitsConfig;

/**
 * The limits a request is checked against before it is routed: the size of its header
 * ({@code jwd.max_header_size}, 431) and a declared body size ({@code icm/HTTP/max_request_size_KB}, 413). A body
 * without Content-Length is counted while it streams, by the {@link BodyReader}.
 *
 * <p>The header is measured as HTTP/1.1 puts it on the wire: request line and {@code name: value} lines with their
 * CRLFs, the same block that Jetty's {@code requestHeaderSize} bounds. The jetty-base sets Jetty's bound higher
 * (64 KB), so that a header between the two reaches jwd, which answers naming its key.
 */
final class RequestLimits {
    private RequestLimits() {
    }

    /**
     * Answers a request over a limit (and counts it).
     *
     * @return true when the request was answered and goes nowhere
     */
    static boolean refuse(HttpServletRequest clientRequest, HttpServletResponse proxyResponse, Dispatcher dispatcher,
                          LimitsConfig limits) throws IOException {
        long start = System.nanoTime();
        int headerSize = headerSize(clientRequest);
        if (headerSize > limits.maxHeaderSize()) {
            proxyResponse.setHeader("Connection", "close");
            answer(proxyResponse, dispatcher, LimitsConfig.MAX_HEADER_SIZE, 431, "jwd: the request header has "
                    + headerSize + " bytes, more than the " + limits.maxHeaderSize() + " bytes allowed ("
                    + LimitsConfig.MAX_HEADER_SIZE + ")", start);
            return true;
        }
        long length = clientRequest.getContentLengthLong();
        if (limits.limitsBody() && length > limits.maxRequestBytes()) {
            // Answered before a byte of the body is read, so the connection is not reused.
            proxyResponse.setHeader("Connection", "close");
            answer(proxyResponse, dispatcher, LimitsConfig.MAX_REQUEST_SIZE, 413, BodyTooLargeException.message(limits.maxRequestBytes())
                    + ": Content-Length " + length, start);
            return true;
        }
        return false;
    }

    private static void answer(HttpServletResponse proxyResponse, Dispatcher dispatcher, String key, int status,
                               String message, long start) throws IOException {
        dispatcher.metrics().limitRejected(key);
        Answers.sendText(proxyResponse, status, message);
        dispatcher.metrics().requestCompleted(null, null, status, System.nanoTime() - start);
    }

    /** Bytes of the request line and header fields as HTTP/1.1 sends them (HTTP/2 headers counted the same way). */
    static int headerSize(HttpServletRequest request) {
        String query = request.getQueryString();
        int size = request.getMethod().length() + 1 + request.getRequestURI().length()
                + (query == null ? 0 : query.length() + 1) + 1 + request.getProtocol().length() + 2;
        for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements(); ) {
                size += name.length() + 2 + values.nextElement().length() + 2;
            }
        }
        return size + 2;
    }
}
