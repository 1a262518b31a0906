package org.jwd.demo;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A BSP-like page of an ABAP server for sessions without cookies: the session id travels in the URL, in the mangled
 * segment after the ICF alias, as the BSP runtime writes it ("Session Handling without Cookies"): the part in
 * parentheses is Url64 (Base64 with '-' for '/') of {@code s=<sap-contextid value>&l=en&c=001}, and every link of
 * the page carries it: {@code /sap(cz1TSUQlM2FBTk9OJTNh...)/bc/bsp/sap/zjwd/bsp.htm}.
 */
final class BspPage {
    /** The page's path below the mangled {@code /sap(...)} segment. */
    static final String PATH = "/bc/bsp/sap/zjwd/bsp.htm";

    private BspPage() {
    }

    /**
     * The session id ({@code s=}, still percent-encoded as the {@code sap-contextid} cookie) of the first mangled
     * segment of a raw path, or {@code null}.
     */
    static String sessionFromUrl(String rawPath) {
        for (String segment : rawPath.split("/")) {
            int semicolon = segment.indexOf(';');
            String name = semicolon < 0 ? segment : segment.substring(0, semicolon);
            int open = name.indexOf('(');
            if (open > 0 && name.endsWith(")")) {
                return session(name.substring(open + 1, name.length() - 1));
            }
        }
        return null;
    }

    private static String session(String part) {
        String fields;
        try {
            fields = new String(Base64.getDecoder().decode(part.replace('-', '/')), StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        for (String field : fields.split("&")) {
            if (field.startsWith("s=") && field.length() > 2) {
                return field.substring(2);
            }
        }
        return null;
    }

    /** The page's URL for this session: the session, language and client in the mangled segment. */
    static String url(String contextId) {
        String fields = "s=" + contextId + "&l=en&c=001";
        String url64 = Base64.getEncoder().encodeToString(fields.getBytes(StandardCharsets.ISO_8859_1)).replace('/', '-');
        return "/sap(" + url64 + ")" + PATH;
    }

    /** The page: who served it, its session and count, and a link that keeps the session without cookies. */
    static String html(String server, String contextId, long hits) {
        String next = url(contextId);
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>BSP on " + server + "</title></head>\n"
                + "<body>\n<h1>BSP page served by <span id=\"server\">" + server + "</span></h1>\n"
                + "<p>session <span id=\"session\">" + contextId + "</span>, hits <span id=\"hits\">" + hits
                + "</span></p>\n<p><a id=\"next\" href=\"" + next + "\">next</a></p>\n</body></html>\n";
    }
}
