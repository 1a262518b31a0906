package org.jwd.modification;

/** SAP's {@code NOP}: does nothing, so that a modifier can stand on its own ({@code NOP [break]} after a condition). */
record NopAction(Where where, boolean breaks) implements Action {
    @Override
    public boolean apply(Context context) {
        if (breaks) {
            context.fired(where, "no later rule of its file runs ([break])", null);
        }
        return true;
    }
}
