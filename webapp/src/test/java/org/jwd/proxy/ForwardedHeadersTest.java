package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class ForwardedHeadersTest {
    @Test
    void anUntrustedPeersValuesAreReplacedByItsOwnAddress() {
        ForwardedHeaders h = ForwardedHeaders.of(false, "203.0.113.7", List.of("1.2.3.4"), "https", "evil.example",
                "443", "http", "jwd.example:8080");

        assertThat(h).isEqualTo(new ForwardedHeaders("203.0.113.7", "http", "jwd.example:8080", null));
    }

    @Test
    void aTrustedPeersChainIsKeptAndThePeerAppended() {
        ForwardedHeaders h = ForwardedHeaders.of(true, "10.0.0.2", List.of("198.51.100.1, 10.0.0.1"), "https",
                "portal.example", "443", "http", "jwd:8080");

        assertThat(h).isEqualTo(new ForwardedHeaders("198.51.100.1, 10.0.0.1, 10.0.0.2", "https", "portal.example",
                "443"));
    }

    @Test
    void severalForwardedForHeadersOfATrustedPeerAreJoinedInOrder() {
        ForwardedHeaders h = ForwardedHeaders.of(true, "10.0.0.2", List.of(" 198.51.100.1 ", "", "10.0.0.1"), null,
                null, null, "http", "jwd:8080");

        assertThat(h).isEqualTo(new ForwardedHeaders("198.51.100.1, 10.0.0.1, 10.0.0.2", "http", "jwd:8080", null));
    }

    @Test
    void aTrustedPeerThatSentNothingIsTreatedAsTheClient() {
        ForwardedHeaders h = ForwardedHeaders.of(true, "::1", List.of(), " ", null, null, "https", null);

        assertThat(h).isEqualTo(new ForwardedHeaders("::1", "https", null, null));
    }
}
