package org.jwd.admin;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST api/session}: where a pasted session identifier's session is.
 *
 * @param readAs   the forms the value was read as ({@code JSESSIONID}, {@code sap-ext-sid}, {@code sap-contextid},
 *                 {@code saplb_*}); empty when it is none of them
 * @param findings what each system makes of it; empty when no server holds it
 * @param none     without findings: why, in words
 */
public record SessionLookupView(List<String> readAs, List<Finding> findings,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String none) {
    /**
     * One server that holds the session.
     *
     * @param system     the SID of its system; {@code null} without {@code wdisp/system_<xx>}
     * @param server     the server's id; {@code null} when it is gone
     * @param state      its state ({@code up}, {@code drained}, ...)
     * @param binding    the rule that places the session there: {@code session table}, {@code session table
     *                   (sap-ext-sid)}, {@code saplb cookie}, {@code route suffix}, {@code sap-contextid}, ...
     * @param idleLeftMs for a session table entry, how long it stays without a use; else {@code null}
     * @param note       when the entry names a server that cannot serve it now: what happens next
     */
    public record Finding(String system, String server, String state, String binding, Long idleLeftMs,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String note) {
    }
}
