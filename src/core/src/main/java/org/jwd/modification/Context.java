package org.jwd.modification;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jwd.routing.BadPathException;
import org.jwd.routing.NormalizedPath;
import org.jwd.routing.PathNormalizer;

/**
 * One request on its way through the action files: the URL and headers as the rules so far left them, and what
 * they did. Made per request, used by one thread, turned into a {@link Modification} at the end.
 */
final class Context {
    private final RequestView request;
    private String rawPath;
    private String query;
    /** {@link #rawPath} decoded, made when a rule first reads it */
    private String decodedPath;
    /** {@link #rawPath} normalized; {@code null} when a rewrite made a path the normalizer refuses */
    private NormalizedPath normalized;
    private boolean rewritten;
    /** the headers rules changed, by lower-case name: the change (its value {@code null}: removed) */
    private Map<String, HeaderEdit> changed;
    private List<HeaderEdit> responseEdits;
    private final List<Fired> fired = new ArrayList<>(4);
    private int status;
    private String location;
    private String message;

    Context(RequestView request) {
        this.request = request;
        this.rawPath = request.rawPath();
        this.query = request.query();
        this.normalized = request.path();
    }

    RequestView request() {
        return request;
    }

    String rawPath() {
        return rawPath;
    }

    String query() {
        return query;
    }

    /** SAP's {@code %{PATH}} and what URL rules match: the path decoded, not normalized, with its parameters. */
    String decodedPath() {
        if (decodedPath == null) {
            decodedPath = PathCodec.decode(rawPath);
        }
        return decodedPath;
    }

    /** The path normalized, as routing reads it; {@code null} when a rewrite made one the normalizer refuses. */
    NormalizedPath normalized() {
        return normalized;
    }

    /** The request header's value as the rules left it: a changed one's, else the client's; {@code null}: none. */
    String header(String name, String lowerCaseName) {
        if (changed != null && changed.containsKey(lowerCaseName)) {
            return changed.get(lowerCaseName).value();
        }
        return request.header().apply(name);
    }

    void changeHeader(HeaderEdit edit, String lowerCaseName) {
        String value = edit.applyTo(header(edit.name(), lowerCaseName));
        if (changed == null) {
            changed = new LinkedHashMap<>(4);
        }
        changed.put(lowerCaseName, new HeaderEdit(value == null ? HeaderEdit.Kind.REMOVE : HeaderEdit.Kind.SET,
                edit.name(), value));
    }

    void changeResponseHeader(HeaderEdit edit) {
        if (responseEdits == null) {
            responseEdits = new ArrayList<>(2);
        }
        responseEdits.add(edit);
    }

    /** The request goes on with this URL: read as the new URL by the rules after, and by routing. */
    void rewrite(String newRawPath, String newQuery) {
        rawPath = newRawPath;
        query = newQuery;
        decodedPath = null;
        rewritten = true;
        try {
            normalized = PathNormalizer.normalize(newRawPath);
        } catch (BadPathException e) {
            // routing answers it 400 naming why; the rules after read the decoded path only
            normalized = null;
        }
    }

    /** jwd answers the request itself; no later rule runs and it goes to no server. */
    void answer(int answerStatus, String answerLocation, String answerMessage) {
        status = answerStatus;
        location = answerLocation;
        message = answerMessage;
    }

    boolean answered() {
        return status != 0;
    }

    void fired(Where where, String verb, Object detail) {
        fired.add(new Fired(where, verb, detail));
    }

    /** Whether the request's path (as rules left it) lies under {@code prefix}, compared regardless of case. */
    boolean isUnder(String prefix) {
        String path = normalized != null ? normalized.path() : decodedPath();
        return path.regionMatches(true, 0, prefix, 0, prefix.length());
    }

    Modification result() {
        List<HeaderEdit> requestEdits = new ArrayList<>(changed == null ? 0 : changed.size());
        String sid = null;
        if (changed != null) {
            for (Map.Entry<String, HeaderEdit> e : changed.entrySet()) {
                if (Modification.namesTargetSystem(e.getKey()) && e.getValue().value() != null) {
                    sid = e.getValue().value();
                }
                if (!e.getKey().startsWith("~")) {
                    requestEdits.add(e.getValue());
                }
            }
        }
        if (sid == null) {
            sid = header(Modification.TARGET_SID_HEADER, Modification.TARGET_SID_HEADER);
        }
        return new Modification(status, location, message, rewritten ? rawPath : null, rewritten ? query : null,
                requestEdits, responseEdits == null ? List.of() : responseEdits, sid == null || sid.isBlank() ? null
                : sid.strip(), fired);
    }
}
