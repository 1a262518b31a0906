package org.jwd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import org.jwd.admin.AdminJson;
import org.jwd.admin.GroupView;
import org.junit.jupiter.api.Test;

class LgtstTest {
    /** {@code api/groups} as jwd writes it, with a field a later jwd might add. */
    private static final String GROUPS = """
            [{"name":"PORTAL","kind":"logon","type":"j2ee","secure":false,"logon_group_type":"B","ext_rfc":true,\
            "http_balancing":"strategy","url_prefixes":["/irj/portal"],"strategy":"weighted_round_robin",\
            "measure":"quality","favorite":"b","next_request":"a",\
            "members":[{"id":"a","capacity":1,"value":1000,"in_flight":0,"served":3,"state":"up",\
            "url":"http://10.0.0.1:50000"},{"id":"b","capacity":2,"value":2000.5,"in_flight":1,"served":4,\
            "state":"up","url":"http://10.0.0.2:50000","zone":"later"}]},\
            {"name":"SPACE","kind":"logon","type":"abap","secure":true,"logon_group_type":"R","ext_rfc":false,\
            "http_balancing":"quality","url_prefixes":[],"strategy":"R","measure":"quality","favorite":null,\
            "next_request":null,"members":[]},\
            {"name":"!J2EES","kind":"internal","type":"j2ee","secure":true,"logon_group_type":null,\
            "ext_rfc":null,"http_balancing":null,"url_prefixes":[],"strategy":null,"measure":null,"favorite":null,\
            "next_request":null,"members":[]}]""";

    @Test
    void printsEachGroupAsItsMessageServerWouldWithTheExternalRfcFlagOfLogonGroups() throws Exception {
        List<GroupView> groups = AdminJson.readAnswer(GROUPS, new TypeReference<List<GroupView>>() { });
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Lgtst.print(groups, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualToNormalizingNewlines("""
                group PORTAL (logon group type B, j2ee servers, HTTP by weighted_round_robin)
                -----------------------------------------------------------------------------
                [a] [http://10.0.0.1:50000] [up] [capacity 1] [quality 1000]
                [b] [http://10.0.0.2:50000] [up] [capacity 2] [quality 2000.5]
                favorite: [b] [http://10.0.0.2:50000] [TRUE]

                group SPACE (logon group type R, abap servers, https, HTTP by R)
                ----------------------------------------------------------------
                no servers
                favorite: none (no server takes new requests) [FALSE]

                group !J2EES (internal group, j2ee servers, https)
                --------------------------------------------------
                no servers
                favorite: none (no server takes new requests)
                """);
    }
}
