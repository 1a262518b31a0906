package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jwd.config.ConfigException;
import org.jwd.launch.SystemListeners.Listener;
import org.jwd.systems.Systems;
import org.junit.jupiter.api.Test;

class SystemListenersTest {
    private static Systems systems(String... entries) throws ConfigException {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < entries.length; i++) {
            properties.put("wdisp/system_" + i, entries[i]);
        }
        return Systems.parse(properties);
    }

    private static List<String> listeners(Systems systems, String host, Integer... open) {
        return SystemListeners.of(systems, host, Set.of(open)).stream().map(Listener::toString).toList();
    }

    @Test
    void opensEachSrcsrvPortOnTheHostOrTheAddressTheItemNames() throws ConfigException {
        Systems systems = systems("SID=PRT, SRCSRV=*:8080, SRCURL=/irj/", "SID=ERP, SRCURL=/sap/",
                "SID=ERP, SRCSRV=*:8081;10.0.0.1:8082;[::1]:8083");

        assertThat(listeners(systems, "127.0.0.1", 8080, 8443))
                .containsExactly("127.0.0.1:8081", "10.0.0.1:8082", "[0:0:0:0:0:0:0:1]:8083");
    }

    @Test
    void opensNothingForThePortsJwdListensOnAnyway() throws ConfigException {
        Systems systems = systems("SID=PRT, SRCSRV=*:8080;*:8443, SRCURL=/irj/", "SID=ERP, SRCSRV=*:8444");

        assertThat(listeners(systems, "127.0.0.1", 8080, 8443, 8444)).isEmpty();
    }

    @Test
    void opensAPortNamedTwiceOnce() throws ConfigException {
        Systems systems = systems("SID=PRT, SRCSRV=*:8081, SRCURL=/irj/", "SID=ERP, SRCSRV=*:8081;127.0.0.1:8081");

        assertThat(listeners(systems, "127.0.0.1", 8080)).containsExactly("127.0.0.1:8081");
    }

    @Test
    void aListenerOnEveryAddressTakesThePortForTheAddressesNamedBesideIt() throws ConfigException {
        Systems systems = systems("SID=ERP, SRCSRV=10.0.0.1:8081;*:8081;10.0.0.2:8082");

        assertThat(listeners(systems, "0.0.0.0", 8080)).containsExactly("0.0.0.0:8081", "10.0.0.2:8082");
    }

    @Test
    void anyPortOpensNothingAndAHostNameOpensItsAddresses() throws ConfigException {
        // SAP's SRCSRV=*:* (every access point) needs no listener of its own
        Systems systems = systems("SID=ERP, SRCSRV=*:*, SRCURL=/sap/", "SID=PRT, SRCSRV=localhost:8082");

        assertThat(listeners(systems, "127.0.0.1", 8080)).contains("127.0.0.1:8082")
                .allMatch(l -> l.endsWith(":8082"));
    }

    @Test
    void opensNothingWithoutSystems() {
        assertThat(listeners(Systems.implicit(), "127.0.0.1", 8080)).isEmpty();
    }

    @Test
    void readsWhatItWritesAndNamesWhatItCannotRead() {
        assertThat(Listener.parse("[::1]:8081")).isEqualTo(new Listener("::1", 8081));
        assertThat(Listener.parse("127.0.0.1:8081")).isEqualTo(new Listener("127.0.0.1", 8081));
        assertThatThrownBy(() -> Listener.parse("127.0.0.1:http")).hasMessageContaining("'127.0.0.1:http'")
                .hasMessageContaining("expected <address>:<port>");
    }
}
