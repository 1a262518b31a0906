package org.jwd.affinity;

import java.util.Locale;

/**
 * What the session table did for a request that it placed or bound: a trace shows it beside the reason. A request
 * the table had no part in has none.
 */
public enum TableOutcome {
    /** the table held the session's binding, and the request followed it */
    HIT,
    /** the session was unknown: bound where the request goes */
    BIND,
    /** its binding named a server that can no longer serve it: replaced by the one the request goes to */
    REBIND,
    /** a concurrent request of the same session bound it first: this one followed that binding */
    BOUND_CONCURRENTLY,
    /** the table is full ({@code wdisp/HTTP/max_session_tab_entries}): the group's default server, nothing bound */
    FULL;

    /** {@code hit}, {@code bind}, {@code rebind}, {@code bound_concurrently}, {@code full} */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
