package org.jwd.accesslog;

import java.util.function.UnaryOperator;

/**
 * What the access log knows of one request once it is answered: the client's request, the answer, and jwd's
 * routing decision. Plain values, so that formats are tested without a servlet container.
 *
 * @param epochMillis    when the request arrived
 * @param client         the client's IP address (the peer's: no name is looked up)
 * @param method         the request's method
 * @param uri            the request's path as the client sent it (percent-encoded, with path parameters)
 * @param query          its query string, or {@code null}
 * @param protocol       {@code HTTP/1.1}, {@code HTTP/2.0}, ...
 * @param path           the decoded, normalized path jwd routed by, or {@code null} when it could not be
 * @param localHost      the name the client addressed (Host header, else the local address)
 * @param localPort      the port the client connected to
 * @param user           the user the container authenticated, or {@code null} (jwd itself authenticates nobody)
 * @param header         a request header's value by name, or {@code null}
 * @param status         the status the client got
 * @param bytes          bytes of the answer's body the client was sent
 * @param durationNanos  from the request's arrival to the end of its answer
 * @param group          the request's group, or {@code null}
 * @param server         the server's id, or {@code null} when the request went to none
 * @param reason         why that server (or why none): {@code balanced}, {@code saplb cookie}, ...
 * @param identifier     the session identifier that placed the request, or {@code null}: only its hash is written
 * @param retries        times the request was sent again to another server
 * @param waitNanos      from sending the request to the server to the first byte of its answer; -1 when there was
 *                       no answer
 */
public record Entry(long epochMillis, String client, String method, String uri, String query, String protocol,
                    String path, String localHost, int localPort, String user, UnaryOperator<String> header,
                    int status, long bytes, long durationNanos, String group, String server, String reason,
                    String identifier, int retries, long waitNanos) {
}
