package org.jwd.modification;

/** A rule of an action file: a header change, a URL rule or {@code NOP}. */
interface Action {
    /** Its line. */
    Where where();

    /**
     * Applies the rule to the request as the rules before it left it.
     *
     * @return whether it took effect: a URL rule whose pattern matched, any header rule or {@code NOP}
     */
    boolean apply(Context context);

    /** {@code [break]}: once it took effect, no later rule of its file runs. */
    boolean breaks();
}
