package org.jwd.admin;

import java.util.List;

import org.jwd.config.HeaderForwarding;
import org.jwd.modification.Fired;
import org.jwd.modification.Modification;
import org.jwd.modification.RequestView;
import org.jwd.routing.RoutingRequest;
import org.jwd.runtime.DispatcherState;

/**
 * The modification handler's part of an explain ({@code icm/HTTP/mod_<xx>}): what its rules would do to the request
 * asked about, and the request as routing would then read it. Applied as to a real request, without its headers
 * beyond the {@code Host} of a full URL and the cookies given.
 *
 * @param request what routing would read: the URL as rewritten, or the question's own
 */
record ExplainedModification(Modification modification, RoutingRequest request, ExplainView.Modifications view) {

    /**
     * @param remoteAddress the address the question came from: a rule reading {@code %{REMOTE_ADDR}} sees it
     */
    static ExplainedModification of(DispatcherState state, ExplainQuestion question, String method,
                                    List<String> cookieHeaders, String remoteAddress, String localAddress) {
        RoutingRequest original = RoutingRequest.of(method, question.rawPath(), question.query(), cookieHeaders,
                question.secure());
        if (original.path() == null || !state.modifications().isConfigured()) {
            return new ExplainedModification(Modification.NONE, original, null);
        }
        String scheme = question.secure() ? "https" : "http";
        Modification m = state.modifications().apply(new RequestView(method, original.rawPath(), original.query(),
                original.path(), question.secure(), remoteAddress, 0, localAddress, question.port(),
                name -> header(name, question, cookieHeaders), () -> HeaderForwarding.accessPoints(scheme, question.port())));
        RoutingRequest routed = DispatcherState.modified(original, m);
        String url = m.rewritten() ? m.rawPath() + (m.query() == null ? "" : "?" + m.query()) : null;
        return new ExplainedModification(m, routed, new ExplainView.Modifications(
                m.fired().stream().map(Fired::toString).toList(), url, m.targetSid()));
    }

    private static String header(String name, ExplainQuestion question, List<String> cookieHeaders) {
        if (name.equalsIgnoreCase("Host")) {
            return question.host();
        }
        return name.equalsIgnoreCase("Cookie") && !cookieHeaders.isEmpty() ? String.join("; ", cookieHeaders) : null;
    }
}
