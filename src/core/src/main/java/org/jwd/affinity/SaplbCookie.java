package org.jwd.affinity;

import java.util.Objects;

/**
 * One well-formed {@code saplb_<group>=(<instance>)<node>} cookie of a request.
 *
 * <p>SAP Java systems name it literally {@code saplb_*}; a logon group {@code G} uses {@code saplb_G}. The value
 * is {@code (<instance>)<node>}, e.g. {@code (J2EE6906720)6906750}: a non-empty instance in parentheses, then the
 * node part, which may be empty (ABAP-style {@code (host_SID_00)}). Neither part contains a parenthesis.
 *
 * @param group    the name suffix after {@code saplb_}: {@code *} or the logon group, never empty
 * @param value    the whole value, e.g. {@code (J2EE6906720)6906750}
 * @param instance the part inside the parentheses, e.g. {@code J2EE6906720}, never empty
 * @param node     the part after the closing parenthesis, e.g. {@code 6906750}; may be empty
 */
public record SaplbCookie(String group, String value, String instance, String node) {

    /** The group suffix of the cookie SAP Java systems (and jwd) set: {@code saplb_*}. */
    public static final String ANY_GROUP = "*";

    public SaplbCookie {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(node, "node");
    }

    /**
     * Does a server's {@code server.<id>.lb_id} designate this cookie? It does when it equals the whole value
     * ({@code (J2EE6906720)6906750}) or the node part ({@code 6906750}; an empty node part matches nothing).
     */
    public boolean matches(String lbId) {
        if (lbId == null || lbId.isEmpty()) {
            return false;
        }
        return lbId.equals(value) || (!node.isEmpty() && lbId.equals(node));
    }

    /** Is this the {@code saplb_*} cookie (not one of a named logon group)? */
    public boolean isAnyGroup() {
        return ANY_GROUP.equals(group);
    }

    /** The cookie as it appeared: {@code saplb_<group>=<value>}. */
    @Override
    public String toString() {
        return SessionCookies.SAPLB_PREFIX + group + "=" + value;
    }
}
