package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class LgtstTest {
    private static Map<String, Object> member(String id, String url, long capacity, double value) {
        return Json.obj("id", id, "url", url, "state", "up", "capacity", capacity, "value", value);
    }

    private static String print(List<Map<String, Object>> groups) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Lgtst.print(groups, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsALogonGroupAsTheMessageServerWouldWithItsExternalRfcFlag() {
        String out = print(List.of(
                Json.obj("name", "PORTAL", "kind", "logon", "type", "j2ee", "secure", false,
                        "logon_group_type", "B", "ext_rfc", true, "strategy", "weighted_round_robin",
                        "measure", "quality", "favorite", "j2ee1", "next_request", "j2ee2",
                        "members", List.of(member("j2ee1", "http://10.0.0.1:50000", 2, 2000),
                                member("j2ee2", "http://10.0.0.2:50000", 1, 1000))),
                Json.obj("name", "SPACE", "kind", "logon", "type", "abap", "secure", true,
                        "logon_group_type", "R", "ext_rfc", false, "strategy", "R",
                        "measure", "quality", "favorite", null, "members", List.of())));

        assertThat(out.lines().toList()).containsExactly(
                "group PORTAL (logon group type B, j2ee servers, HTTP by weighted_round_robin)",
                "-----------------------------------------------------------------------------",
                "[j2ee1] [http://10.0.0.1:50000] [up] [capacity 2] [quality 2000.0]",
                "[j2ee2] [http://10.0.0.2:50000] [up] [capacity 1] [quality 1000.0]",
                "favorite: [j2ee1] [http://10.0.0.1:50000] [TRUE]",
                "",
                "group SPACE (logon group type R, abap servers, https, HTTP by R)",
                "----------------------------------------------------------------",
                "no servers",
                "favorite: none (no server takes new requests) [FALSE]");
    }

    @Test
    void printsAnInternalGroupWithoutTheFlag() {
        String out = print(List.of(Json.obj("name", "!J2EE", "kind", "internal", "type", "j2ee", "secure", false,
                "logon_group_type", null, "ext_rfc", null, "strategy", "weighted_round_robin",
                "measure", "load factor", "favorite", "a",
                "members", List.of(member("a", "http://10.0.0.1:50000", 1, 0.5)))));

        assertThat(out.lines().toList()).containsExactly(
                "group !J2EE (internal group, j2ee servers)",
                "------------------------------------------",
                "[a] [http://10.0.0.1:50000] [up] [capacity 1] [load factor 0.5]",
                "favorite: [a] [http://10.0.0.1:50000]");
    }
}
