package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;

/** Which of a server's headers its {@code Connection} header names as this hop's only. */
class ProxyHeadersTest {
    private static final HttpField HOP = new HttpField("X-Server-Hop", "secret");
    private static final HttpField DATE = new HttpField(HttpHeader.DATE, "Wed, 02 Dec 2026 00:05:34 GMT");

    @Test
    void theUsualValuesNameNoHeader() {
        assertThat(ProxyHeaders.namedByConnection(HttpFields.build().add(HttpHeader.CONNECTION, "keep-alive")
                .add(HOP))).isEmpty();
        assertThat(ProxyHeaders.namedByConnection(HttpFields.build().add(HttpHeader.CONNECTION, "Close")
                .add(HOP))).isEmpty();
        assertThat(ProxyHeaders.namedByConnection(HttpFields.build().add(HOP))).isEmpty();
    }

    @Test
    void aHeaderNamedAmongOtherTokensInAnyCaseIsThisHopsOnly() {
        HttpFields headers = HttpFields.build().add(HttpHeader.CONNECTION, "close, x-server-HOP").add(HOP).add(DATE);

        assertThat(ProxyHeaders.namedByConnection(headers)).contains("x-server-hop").doesNotContain("date");
    }

    @Test
    void everyConnectionHeaderCountsNotOnlyTheFirst() {
        HttpFields headers = HttpFields.build().add(HttpHeader.CONNECTION, "keep-alive")
                .add(HttpHeader.CONNECTION, "X-Server-Hop").add(HOP);

        assertThat(ProxyHeaders.namedByConnection(headers)).contains("x-server-hop");
    }
}
