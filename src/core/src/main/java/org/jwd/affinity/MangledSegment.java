package org.jwd.affinity;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The ABAP session id inside a mangled URL segment. BSP and the Web GUI write settings into the URL, after the
 * ICF alias, as Base64 of {@code name=value&...} pairs in parentheses: {@code /sap(bD1lbiZjPTAwMQ==)/bc/bsp/...}
 * carries {@code l=en&c=001} (language, client). For sessions without cookies the BSP runtime puts the session id
 * there too (SAP Library, BSP "Session Handling without Cookies": "the session_id can be transferred either as a
 * cookie or as a URI parameter ... the statement in brackets after the namespace specification"), under the key
 * {@code s}, its value written as the {@code sap-contextid} cookie's ({@code SID%3aANON%3a<host>_<SID>_<nr>%3a...}):
 * {@code /sap(cz1TSUQlM2FBTk9OJTNh...)/bc/gui/sap/its/webgui} is {@code s=SID%3aANON%3a...}.
 *
 * <p>Where SAP's documents stop: the stored copy of the "SAP Load Balancing Protocol Specification" page on the ABAP
 * session identifier ends before its URL form, and no document found names the key {@code s}; it is read from URLs
 * that SAP systems write (Web GUI and BSP links). Base64 is read in both alphabets SAP uses: standard, and
 * "Url64", SAP's variant with '-' for '/' ("The Url64 encoding scheme"). A part that is no Base64, or has no
 * {@code s}, carries no session: never an error.
 */
public final class MangledSegment {
    /** Longer parts are not decoded: a real one holds a few settings and one session id. */
    private static final int MAX_PART_LENGTH = 2048;
    private static final String SESSION_KEY = "s=";

    private MangledSegment() {
    }

    /**
     * The value of {@code s} in the last part that has one, still percent-encoded as the {@code sap-contextid}
     * cookie is; {@code null} when none has.
     */
    static String sessionId(List<String> parts) {
        for (int i = parts.size() - 1; i >= 0; i--) {
            String value = sessionId(parts.get(i));
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /** Whether this part of a mangled segment carries a session id: not to be written in a log. */
    public static boolean carriesSessionId(String part) {
        return sessionId(part) != null;
    }

    /** The value of {@code s} in one part, or {@code null}. */
    static String sessionId(String part) {
        String fields = decoded(part);
        if (fields == null) {
            return null;
        }
        int start = 0;
        while (start < fields.length()) {
            int end = fields.indexOf('&', start);
            if (end < 0) {
                end = fields.length();
            }
            if (fields.startsWith(SESSION_KEY, start) && end > start + SESSION_KEY.length()) {
                return fields.substring(start + SESSION_KEY.length(), end);
            }
            start = end + 1;
        }
        return null;
    }

    /** The Base64 (or Url64) text decoded as ISO-8859-1, or {@code null} when it is none. */
    static String decoded(String part) {
        if (part.isEmpty() || part.length() > MAX_PART_LENGTH) {
            return null;
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(part.replace('-', '/'));
            return new String(bytes, StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
