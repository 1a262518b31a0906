package org.jwd.proxy;

import java.util.List;

/**
 * The {@code X-Forwarded-*} values jwd sends to a server. A client's own values are believed only when the direct
 * peer is a trusted proxy ({@code jwd.trusted_proxies}): then its {@code X-Forwarded-For} chain is kept and the
 * peer appended ({@code client, proxy1, peer}), and its {@code X-Forwarded-Proto}, {@code -Host} and {@code -Port}
 * are kept, because that proxy saw the client's connection and jwd did not. From any other peer whatever it
 * sent is dropped: a server would believe it and log, authorize or build redirects from a forged address.
 *
 * @param forwardedFor the {@code X-Forwarded-For} value
 * @param proto        the {@code X-Forwarded-Proto} value
 * @param host         the {@code X-Forwarded-Host} value, or {@code null} when there is none to send
 * @param port         the {@code X-Forwarded-Port} value, or {@code null} when there is none to send
 */
record ForwardedHeaders(String forwardedFor, String proto, String host, String port) {

    /**
     * @param trusted     whether the direct peer is a trusted proxy
     * @param peer        the direct peer's address
     * @param clientFor   every {@code X-Forwarded-For} header the peer sent, in order
     * @param clientProto the peer's {@code X-Forwarded-Proto}, or {@code null}
     * @param clientHost  the peer's {@code X-Forwarded-Host}, or {@code null}
     * @param clientPort  the peer's {@code X-Forwarded-Port}, or {@code null}
     * @param scheme      the scheme of the connection jwd received the request on
     * @param host        the {@code Host} jwd received, or {@code null}
     */
    static ForwardedHeaders of(boolean trusted, String peer, List<String> clientFor, String clientProto,
                               String clientHost, String clientPort, String scheme, String host) {
        if (!trusted) {
            return new ForwardedHeaders(peer, scheme, host, null);
        }
        StringBuilder chain = new StringBuilder();
        for (String value : clientFor) {
            if (!value.isBlank()) {
                chain.append(value.strip()).append(", ");
            }
        }
        chain.append(peer);
        return new ForwardedHeaders(chain.toString(), orElse(clientProto, scheme), orElse(clientHost, host),
                clientPort == null || clientPort.isBlank() ? null : clientPort.strip());
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value.strip();
    }
}
