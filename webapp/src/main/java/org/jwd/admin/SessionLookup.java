package org.jwd.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.affinity.SessionAffinity;
import org.jwd.affinity.SessionCookies;
import org.jwd.affinity.SessionIdentifiers;
import org.jwd.runtime.DispatcherState;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTimeouts;
import org.jwd.topology.Server;

/**
 * {@code POST api/session}: where the session of one identifier is, as an operator asks when a user says "my
 * session was lost". The value is a {@code JSESSIONID}, an ESID ({@code sap-ext-sid}), a {@code sap-contextid} or a
 * {@code saplb_*} cookie's value, alone or as {@code name=value}; alone, it is read as each of them in turn. For
 * each system, each reading that places a request shows the server, the rule that placed it (SAP's order, as a
 * request would meet it), and for a session table entry how long it stays without a use. Nothing changes: no
 * binding, no refresh, no count; the value is neither logged nor echoed.
 */
final class SessionLookup {
    private static final Pattern NAMED = Pattern.compile("(?i)(JSESSIONID|sap-contextid|sap-ext-sid|saplb_[^=\\s;]*)"
            + "\\s*=\\s*(.*)");
    private static final List<String> KINDS = List.of("JSESSIONID", "sap-ext-sid", "sap-contextid", "saplb_*");

    private SessionLookup() {
    }

    static AdminApi.Answer lookup(DispatcherState state, String text) {
        String value = text == null ? "" : text.strip();
        if (value.isEmpty()) {
            return AdminApi.Answer.error(400, "a session lookup needs a value: a JSESSIONID, an ESID (sap-ext-sid),"
                    + " a sap-contextid or a saplb_* cookie's value, alone or as name=value");
        }
        List<String> cookies = new ArrayList<>();
        Matcher named = NAMED.matcher(value);
        if (named.matches()) {
            String name = named.group(1);
            cookies.add((name.equalsIgnoreCase("JSESSIONID") ? "JSESSIONID" : name.toLowerCase(Locale.ROOT)
                    .startsWith("saplb_") ? name : name.toLowerCase(Locale.ROOT)) + "=" + named.group(2).strip());
        } else {
            KINDS.forEach(kind -> cookies.add(kind + "=" + value));
        }
        List<SessionLookupView.Finding> findings = new ArrayList<>();
        List<String> read = new ArrayList<>();
        for (String cookie : cookies) {
            SessionIdentifiers ids = SessionCookies.parse(cookie);
            if (ids.isEmpty()) {
                continue;
            }
            read.add(cookie.substring(0, cookie.indexOf('=')));
            for (SystemPart part : SystemPart.of(state)) {
                findings.addAll(find(part, ids));
            }
        }
        return AdminApi.Answer.ok(new SessionLookupView(read, findings, findings.isEmpty()
                ? "no server holds it: no session table entry, and no server of its name, route or saplb value"
                + (read.isEmpty() ? " (it is none of the forms jwd reads)" : "") : null));
    }

    /** What one system makes of the identifiers: the server they place a request on, and the table's entries. */
    private static List<SessionLookupView.Finding> find(SystemPart part, SessionIdentifiers ids) {
        List<SessionLookupView.Finding> found = new ArrayList<>();
        SessionAffinity.Choice choice = part.router().locate(ids);
        SessionTable table = part.router().sessionTable();
        // a JSESSIONID a server set is kept under its own value, one bound at request time under its temporary key
        List<String> keys = ids.jsessionid() != null
                ? List.of(ids.jsessionid(), SessionTimeouts.temporaryKey(ids.jsessionid()))
                : ids.sapExtSid() != null ? List.of(SessionTimeouts.esidKey(ids.sapExtSid())) : List.of();
        String tableKey = keys.stream().filter(k -> table.peek(k) != null).findFirst().orElse(null);
        String bound = tableKey == null ? null : table.peek(tableKey);
        Duration left = bound == null ? null : table.idleLeft(tableKey);
        if (choice != null) {
            boolean fromTable = choice.reason().startsWith("session table");
            found.add(finding(part, choice.server(), choice.reason(), fromTable ? left : null, null));
        }
        if (bound != null && (choice == null || !choice.server().id().equals(bound))) {
            Server server = part.topology().server(bound);
            found.add(finding(part, server, "session table", left, server == null
                    ? "bound to " + bound + ", which is gone: its next request is balanced and bound anew"
                    : "bound to " + bound + ", which does not serve its sessions now ("
                    + server.state().name().toLowerCase(Locale.ROOT) + "): its next request is rebound"));
        }
        return found;
    }

    private static SessionLookupView.Finding finding(SystemPart part, Server server, String rule, Duration left,
                                                     String note) {
        return new SessionLookupView.Finding(part.sid(), server == null ? null : server.id(),
                server == null ? null : server.state().name().toLowerCase(Locale.ROOT), rule,
                left == null ? null : left.toMillis(), note);
    }
}
