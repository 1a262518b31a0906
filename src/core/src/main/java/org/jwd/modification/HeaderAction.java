package org.jwd.modification;

/**
 * {@code SetHeader}, {@code SetHeaderIfEmpty}, {@code AppendHeader}, {@code RemoveHeader} and their response
 * variants ({@code SetResponseHeader}, ...; SAP NetWeaver 7.4, "Deleting, Adding, and Enhancing HTTP Header
 * Fields"): header names regardless of case, the value with variables. A request header changed here is what later
 * rules read ({@code %{HTTP_...}}) and what the server gets; a response header is changed on the server's answer.
 *
 * @param lowerCaseName {@code name} in lower case, computed once: a changed header is found by it
 * @param value         what is set or appended; {@code null} for a removal
 */
record HeaderAction(Where where, HeaderEdit.Kind kind, boolean response, String name, String lowerCaseName,
                    Template value, boolean breaks) implements Action {
    @Override
    public boolean apply(Context context) {
        String text = value == null ? null : value.expand(context, null);
        HeaderEdit edit = new HeaderEdit(kind, name, text);
        if (response) {
            context.changeResponseHeader(edit);
        } else {
            context.changeHeader(edit, lowerCaseName);
        }
        context.fired(where, response ? Fired.RESPONSE_HEADER : Fired.HEADER, edit);
        return true;
    }
}
