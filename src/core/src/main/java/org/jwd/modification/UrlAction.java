package org.jwd.modification;

import java.util.regex.Matcher;

/**
 * SAP's URL rules ("Manipulating URLs"): {@code <operation> <pattern> <dest> [<option>]}, the pattern a regular
 * expression searched in the URL-decoded path (the raw, still encoded path for {@code RegRewriteRawUrl}), an
 * {@code I} in the name making it case-insensitive, a leading {@code !} negating it.
 * <ul>
 *   <li>{@code RegRewriteUrl}: the request goes on with {@code <dest>}, {@code $n} standing for the pattern's groups;
 *       URL-encoded again unless {@code [noescape]}; a {@code ?query} in it replaces the request's query
 *       ({@code [qsappend]}: goes before it), none keeps the request's;</li>
 *   <li>{@code RegRedirectUrl}: jwd answers with a redirect to {@code <dest>} ({@code [CODE=...]}, 302 by default);</li>
 *   <li>{@code RegForbiddenUrl}, {@code RegGoneUrl}: jwd answers 403 or 410. Besides the decoded path, jwd tries
 *       the pattern on the normalized path too, so that no spelling ({@code //nwa}, {@code /x/../nwa}) walks
 *       around it.</li>
 * </ul>
 * A redirect or a refusal ends every action file: the request goes to no server.
 */
record UrlAction(Where where, Operation operation, boolean raw, Regex pattern, boolean negated, Template dest,
                 Modifiers modifiers) implements Action {
    /** What a URL rule does when its pattern matches. */
    enum Operation { REWRITE, REDIRECT, FORBIDDEN, GONE }

    @Override
    public boolean breaks() {
        return modifiers.breaks();
    }

    @Override
    public boolean apply(Context context) {
        Matcher m = pattern.matcher(raw ? context.rawPath() : context.decodedPath());
        boolean found = m.find();
        boolean refusal = operation == Operation.FORBIDDEN || operation == Operation.GONE;
        if (found == negated && refusal && context.normalized() != null) {
            m = pattern.matcher(context.normalized().path());
            found = m.find();
        }
        if (found == negated) {
            return false;
        }
        Matcher match = found ? m : null;
        switch (operation) {
            case FORBIDDEN -> refuse(context, 403, "forbidden");
            case GONE -> refuse(context, 410, "gone");
            case REDIRECT -> redirect(context, match);
            default -> rewrite(context, match);
        }
        return true;
    }

    private void refuse(Context context, int status, String what) {
        // the file's name without its directory: the client learns which rule, not where jwd keeps its files
        String file = where.file().substring(Math.max(where.file().lastIndexOf('/'), where.file().lastIndexOf('\\'))
                + 1);
        context.answer(status, null, "jwd: this URL is " + what + " (action file " + file + ", line "
                + where.line() + ")");
        context.fired(where, status == 403 ? Fired.FORBIDDEN : Fired.GONE, null);
    }

    private void redirect(Context context, Matcher match) {
        String[] url = target(context, match);
        String location = url[1] == null ? url[0] : url[0] + "?" + url[1];
        context.answer(modifiers.redirectCode(), location, null);
        context.fired(where, Fired.REDIRECTED, location);
    }

    private void rewrite(Context context, Matcher match) {
        if (dest == null) {
            context.fired(where, "matched, nothing to substitute ('-')", null);
            return;
        }
        String[] url = target(context, match);
        context.rewrite(url[0], url[1]);
        context.fired(where, Fired.REWRITTEN, url[1] == null ? url[0] : url[0] + "?" + url[1]);
    }

    /** {@code <dest>} for this request, as a path (percent-encoded) and a query ({@code null}: none). */
    private String[] target(Context context, Matcher match) {
        String substituted = dest.expand(context, match);
        int q = substituted.indexOf('?');
        String path = q < 0 ? substituted : substituted.substring(0, q);
        String query = q < 0 ? null : substituted.substring(q + 1);
        if (!raw && !modifiers.noEscape()) {
            path = PathCodec.encodePath(path);
            query = query == null ? null : PathCodec.encodeQuery(query);
        }
        if (query == null) {
            query = context.query();
        } else if (modifiers.queryAppend() && context.query() != null && !context.query().isEmpty()) {
            query = query.isEmpty() ? context.query() : query + "&" + context.query();
        }
        return new String[] {path, query == null || query.isEmpty() ? null : query};
    }
}
