package org.jwd.tracing;

import java.util.ArrayList;
import java.util.List;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;

import org.jwd.modification.Fired;
import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.jwd.systems.SystemEntry;
import org.jwd.topology.Server;

/**
 * jwd's own attributes of a span, under {@code jwd.}: the routing decision of the request (on its server span) and
 * the server of each forward (on its client span). The values are those of the access log and the admin page.
 */
public final class JwdAttributes {
    /** the system's SID ({@code wdisp/system_<xx>}), with several systems */
    public static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("jwd.system");
    /** the server group: a logon group or {@code !J2EE}, {@code !DIAG}, ... */
    public static final AttributeKey<String> GROUP = AttributeKey.stringKey("jwd.group");
    /** the server's id ({@code server.<id>.*}) */
    public static final AttributeKey<String> SERVER = AttributeKey.stringKey("jwd.server");
    /** the server's SAP name, {@code host_SID_00} ({@code server.<id>.name}), where it is not its id */
    public static final AttributeKey<String> SERVER_SAP_NAME = AttributeKey.stringKey("jwd.server.sap_name");
    /** why that server, or why none: {@code balanced}, {@code saplb cookie}, {@code permission table line 3}, ... */
    public static final AttributeKey<String> REASON = AttributeKey.stringKey("jwd.reason");
    /** the identifier that placed the request: {@code sap-ext-sid}, {@code sap-contextid}, {@code saplb}, ... */
    public static final AttributeKey<String> IDENTIFIER_SOURCE = AttributeKey.stringKey("jwd.identifier.source");
    /** what the session table did: {@code hit}, {@code bind}, {@code rebind}, {@code bound_concurrently}, {@code full} */
    public static final AttributeKey<String> SESSION_TABLE = AttributeKey.stringKey("jwd.session_table");
    /** what the modification handler did to the URL or the answer: {@code rewritten by actions.txt:9} */
    public static final AttributeKey<String> MODIFICATION = AttributeKey.stringKey("jwd.modification");
    /** each rule of the action files that fired, by its line: {@code actions.txt:3} */
    public static final AttributeKey<List<String>> MODIFICATION_RULES =
            AttributeKey.stringArrayKey("jwd.modification.rules");
    /** why the request was sent again elsewhere: the failure of the attempt before, in words */
    public static final AttributeKey<String> RETRY_CAUSE = AttributeKey.stringKey("jwd.retry.cause");
    /** the transaction id of SAP's passport ({@code SAP-PASSPORT}), linking the trace to SAP's end-to-end trace */
    public static final AttributeKey<String> PASSPORT_TRANSACTION =
            AttributeKey.stringKey("jwd.sap_passport.transaction_id");

    private JwdAttributes() {
    }

    /** The routing decision on the request's server span. */
    static void decision(Span span, SystemEntry system, RoutingDecision decision, Modification modification) {
        if (system != null && !system.isImplicit()) {
            span.setAttribute(SYSTEM, system.sid());
        }
        if (decision.group() != null) {
            span.setAttribute(GROUP, decision.group().name());
        }
        server(span, decision.server());
        span.setAttribute(REASON, decision.reason());
        if (decision.source() != null) {
            span.setAttribute(IDENTIFIER_SOURCE, decision.source().toString());
        }
        if (decision.table() != null) {
            span.setAttribute(SESSION_TABLE, decision.table().toString());
        }
        if (modification.describe() != null) {
            span.setAttribute(MODIFICATION, modification.describe());
        }
        if (!modification.fired().isEmpty()) {
            List<String> rules = new ArrayList<>();
            for (Fired fired : modification.fired()) {
                rules.add(fired.where().place());
            }
            span.setAttribute(MODIFICATION_RULES, rules);
        }
    }

    /** The server a span's request went to, by its id and its SAP name. */
    static void server(Span span, Server server) {
        if (server != null) {
            span.setAttribute(SERVER, server.id());
            if (!server.id().equals(server.config().name())) {
                span.setAttribute(SERVER_SAP_NAME, server.config().name());
            }
        }
    }
}
