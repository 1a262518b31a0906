package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import org.junit.jupiter.api.Test;

class LgtstTest {
    /** {@code api/groups} as jwd writes it, with a field a later jwd might add. */
    private static final String GROUPS = """
            [{"name":"PORTAL","kind":"logon","type":"j2ee","secure":false,"logon_group_type":"B",\
            "url_prefixes":["/irj/portal"],"strategy":"B","measure":"quality","favorite":"b",\
            "members":[{"id":"a","capacity":1,"value":1000,"in_flight":0,"served":3,"state":"up",\
            "url":"http://10.0.0.1:50000"},{"id":"b","capacity":2,"value":2000.5,"in_flight":1,"served":4,\
            "state":"up","url":"http://10.0.0.2:50000","zone":"later"}]},\
            {"name":"!J2EES","kind":"internal","type":"j2ee","secure":true,"logon_group_type":null,\
            "url_prefixes":[],"strategy":null,"measure":null,"favorite":null,"members":[]}]""";

    @Test
    void printsEachGroupItsMembersWithTheirMeasureAndTheFavorite() throws Exception {
        List<GroupView> groups = AdminJson.readAnswer(GROUPS, new TypeReference<List<GroupView>>() { });
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Lgtst.print(groups, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualToNormalizingNewlines("""
                group PORTAL (logon group type B, j2ee servers)
                -----------------------------------------------
                [a] [http://10.0.0.1:50000] [up] [capacity 1] [quality 1000]
                [b] [http://10.0.0.2:50000] [up] [capacity 2] [quality 2000.5]
                favorite: [b] [http://10.0.0.2:50000]

                group !J2EES (internal group, j2ee servers, https)
                --------------------------------------------------
                no servers
                favorite: none (no server takes new requests)
                """);
    }
}
