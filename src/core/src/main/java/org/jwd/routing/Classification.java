package org.jwd.routing;

import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;

/**
 * Where a request belongs and why: the outcome of {@link GroupResolver#classify}. Every field is a plain
 * value, ready for the explain endpoint's JSON.
 *
 * @param path          the normalized path the decision was made on
 * @param type          ABAP or J2EE
 * @param rule          what decided the type: {@value #ROOT}, {@value #ICF_PREFIX} or {@value #DEFAULT}
 * @param matchedPrefix with {@value #ICF_PREFIX}, the URL mapping table entry that matched
 *                      ({@code /sap/bc/} or {@code case:/sap/bc/}); otherwise {@code null}
 * @param group         the group to balance over; {@code null} exactly when {@code errorStatus != 0}
 * @param reason        the whole decision in words, e.g. "path /sap/bc/x matches ICF prefix /sap/bc/ -> abap;
 *                      no logon group -> !DIAG"
 * @param errorStatus   0, or the status to answer instead of forwarding (503: no active server)
 * @param errorMessage  with an error, what to tell the client and the log, naming the group; else {@code null}
 * @param anyStack      no J2EE server is active, so the request belongs to {@code !ALL}: the session identifiers of
 *                      both stacks count (an ABAP-only landscape keeps its {@code sap-contextid} sessions on root URLs)
 * @param logonGroup    the logon group whose URL prefix covers the path, even when {@code group} is another (it had
 *                      no active member), or {@code null}: its {@code saplb_<group>} cookie is the one read
 */
public record Classification(String path, ServerType type, String rule, String matchedPrefix, ServerGroup group,
                             String reason, int errorStatus, String errorMessage, boolean anyStack,
                             String logonGroup) {
    /** A root URL ({@code /}, {@code /index.html}), typed by {@code is/HTTP/default_root_hdl}. */
    public static final String ROOT = "root";
    /** An entry of the URL mapping table covers the path: ABAP. */
    public static final String ICF_PREFIX = "icf_prefix";
    /** Nothing matched: J2EE. */
    public static final String DEFAULT = "default";

    public boolean isError() {
        return errorStatus != 0;
    }

    /**
     * The stack whose session identifiers place the request ({@code saplb_*} and JSESSIONID for J2EE; ESID and
     * {@code sap-contextid} for ABAP), or {@code null} for both (the {@code !ALL} case).
     */
    public ServerType sessionType() {
        return anyStack ? null : type;
    }

    /**
     * Whose reading of letter case the URL filter applies to the path: ABAP for an ABAP path, whose ICF resolves it
     * regardless of case; ABAP too for a J2EE path while no J2EE server is active ({@link #anyStack}), since it may
     * then go to an ABAP server of {@code !ALL}, which would read {@code /SAP/PUBLIC/x} as {@code /sap/public/x};
     * else J2EE.
     */
    public ServerType filterType() {
        return anyStack ? ServerType.ABAP : type;
    }

    /** The group's name ({@code !DIAG}, {@code PORTAL}, ...), or {@code null} on error. */
    public String groupName() {
        return group == null ? null : group.name();
    }

    /** {@code abap} or {@code j2ee}, as the configuration writes it. */
    public String typeKey() {
        return type.key();
    }

    @Override
    public String toString() {
        return isError() ? "Classification(" + errorStatus + " " + errorMessage + "; " + reason + ")"
                : "Classification(" + groupName() + "; " + reason + ")";
    }
}
