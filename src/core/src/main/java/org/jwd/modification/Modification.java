package org.jwd.modification;

import java.util.List;
import java.util.Locale;

/**
 * What the modification handler did to one request: the URL it goes on with, the headers changed on the way to the
 * server and on the way back, the system a rule named, or the answer jwd gives itself instead (a redirect, 403,
 * 410), and each rule that fired. Immutable; {@link #NONE} when no rule applied.
 *
 * @param status          0 when the request goes on; else the status jwd answers with (3xx, 403 or 410)
 * @param location        with a redirect, its {@code Location}; else {@code null}
 * @param message         with 403 or 410, the answer's text; else {@code null}
 * @param rawPath         the path the request goes on with, percent-encoded as on a request line; {@code null}
 *                        when no rule rewrote it
 * @param query           the query it goes on with (meaningful only when {@code rawPath} is set)
 * @param requestHeaders  the final value of each request header a rule changed, in the order first changed
 * @param responseHeaders the response rules' edits, in their order, for the server's answer
 * @param targetSid       the system a rule or a trusted client named ({@code x-sap-webdisp-target-sid}, or SAP's
 *                        pseudo header {@code ~webdisp_target_sid}); {@code null} for none
 * @param fired           each rule that took effect, in order
 */
public record Modification(int status, String location, String message, String rawPath, String query,
                           List<HeaderEdit> requestHeaders, List<HeaderEdit> responseHeaders, String targetSid,
                           List<Fired> fired) {
    /** The header that names a request's system, as SAP's modification handler sets it. */
    public static final String TARGET_SID_HEADER = "x-sap-webdisp-target-sid";
    /** SAP's pseudo header for the same: it selects the system and is not forwarded. */
    public static final String TARGET_SID_PSEUDO_HEADER = "~webdisp_target_sid";

    /** No rule applied and no system is named. */
    public static final Modification NONE = new Modification(0, null, null, null, null, List.of(), List.of(), null,
            List.of());

    public Modification {
        requestHeaders = List.copyOf(requestHeaders);
        responseHeaders = List.copyOf(responseHeaders);
        fired = List.copyOf(fired);
    }

    /** Only the system a trusted client named, no rule applied; {@link #NONE} when {@code sid} is {@code null}. */
    static Modification naming(String sid) {
        return sid == null ? NONE : new Modification(0, null, null, null, null, List.of(), List.of(), sid, List.of());
    }

    /** Whether jwd answers the request itself (redirect, forbidden, gone): it goes to no server. */
    public boolean answered() {
        return status != 0;
    }

    /** Whether a rule rewrote the URL: the request goes on, is selected, filtered and routed as {@link #rawPath()}. */
    public boolean rewritten() {
        return rawPath != null;
    }

    /** The final change of the request header {@code name} (any case), or {@code null} when no rule changed it. */
    public HeaderEdit requestHeader(String name) {
        for (HeaderEdit edit : requestHeaders) {
            if (edit.name().equalsIgnoreCase(name)) {
                return edit;
            }
        }
        return null;
    }

    /**
     * For the access log's reason: which rule answered the request or rewrote its URL
     * ({@code rewritten by actions.txt:9}); {@code null} when none did.
     */
    public String describe() {
        String verb = status >= 300 && status < 400 ? Fired.REDIRECTED : status == 403 ? Fired.FORBIDDEN
                : status == 410 ? Fired.GONE : rawPath != null ? Fired.REWRITTEN : null;
        if (verb == null) {
            return null;
        }
        String what = verb.substring(0, verb.indexOf(' '));
        for (int i = fired.size() - 1; i >= 0; i--) {
            if (fired.get(i).verb().equals(verb)) {
                return what + " by " + fired.get(i).where().place();
            }
        }
        return what + " by the modification handler";
    }

    /** Whether {@code name} is the header or pseudo header that names the request's system. */
    static boolean namesTargetSystem(String lowerCaseName) {
        return lowerCaseName.equals(TARGET_SID_HEADER) || lowerCaseName.equals(TARGET_SID_PSEUDO_HEADER);
    }

    @Override
    public String toString() {
        if (this == NONE) {
            return "Modification[none]";
        }
        return "Modification[" + (answered() ? status + (location == null ? "" : " " + location)
                : rewritten() ? rawPath + (query == null ? "" : "?" + query) : "not rewritten")
                + (targetSid == null ? "" : ", system " + targetSid.toUpperCase(Locale.ROOT)) + ", " + fired + "]";
    }
}
