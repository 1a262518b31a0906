package org.jwd.termination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HttpsListenerTest {
    @Test
    void readsWhatJettyModulesPrintsForEachFurtherHttpsLine() {
        assertThat(HttpsListener.parseAll("127.0.0.2:444=icm/server_port_2, [::1]:445=icm/server_port_3,"))
                .containsExactly(new HttpsListener("127.0.0.2", 444, "icm/server_port_2"),
                new HttpsListener("::1", 445, "icm/server_port_3"));
        assertThat(HttpsListener.parseAll("")).isEmpty();
        assertThat(HttpsListener.parseAll("-")).isEmpty();
    }

    @Test
    void anItemNotOfThatFormIsNamed() {
        for (String bad : new String[] {"127.0.0.1:444", "127.0.0.1=icm/server_port_2", ":444=x", "h:99999=x",
            "h:1="}) {
            assertThatThrownBy(() -> HttpsListener.parse(bad)).hasMessage("jwd.https_listeners: '" + bad
                    + "': expected <address>:<port>=<the icm/server_port_<xx> it listens for> (bin/jwd writes it)");
        }
    }
}
