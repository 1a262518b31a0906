package org.jwd.modification;

import java.util.List;
import java.util.Locale;

/**
 * A rule's modifiers ("options"), written after it in brackets, several separated by commas or each in its own
 * brackets: {@code [break]}, {@code [noescape]}, {@code [qsappend]}, {@code [qsreplace]}, {@code [CODE=permanent]}.
 * SAP's {@code restart}, {@code compound} and {@code skip} are refused by name: SAP no longer recommends the last
 * two, and jwd does not run a file twice.
 *
 * @param breaks       {@code break}: once the rule took effect, no later rule of its file runs
 * @param noEscape     {@code noescape}: the substitution is taken as written, not URL-encoded
 * @param queryAppend  {@code qsappend}: a query in the substitution goes before the request's, rather than
 *                     replacing it ({@code qsreplace}, the default)
 * @param redirectCode {@code CODE=}: a redirect's status, 302 unless given ({@code permanent} 301, {@code temp}
 *                     302, {@code seeother} 303, or a number from 300 to 399)
 */
record Modifiers(boolean breaks, boolean noEscape, boolean queryAppend, int redirectCode) {
    static final Modifiers NONE = new Modifiers(false, false, false, 302);

    /** Which modifiers a rule takes: every rule {@code break}; a rewrite and a redirect the URL's; a redirect CODE. */
    enum Accepts { BREAK_ONLY, URL, REDIRECT }

    /**
     * @param written the modifiers as written, each bracket's content ({@code break, noescape})
     * @param rule    the rule's name, for messages
     * @throws IllegalArgumentException naming the modifier and why it is refused
     */
    static Modifiers parse(List<String> written, Accepts accepts, String rule) {
        boolean breaks = false;
        boolean noEscape = false;
        boolean append = false;
        int code = 302;
        for (String group : written) {
            for (String item : group.split(",")) {
                String m = item.strip();
                String lower = m.toLowerCase(Locale.ROOT);
                if (lower.equals("break")) {
                    breaks = true;
                } else if (lower.equals("noescape") || lower.equals("qsappend") || lower.equals("qsreplace")) {
                    requires(accepts != Accepts.BREAK_ONLY, m, rule, "a URL rewrite or redirect");
                    noEscape |= lower.equals("noescape");
                    append = lower.equals("qsappend") || append && !lower.equals("qsreplace");
                } else if (lower.startsWith("code=")) {
                    requires(accepts == Accepts.REDIRECT, m, rule, "RegRedirectUrl and RegIRedirectUrl");
                    code = code(m.substring("code=".length()).strip());
                } else {
                    throw new IllegalArgumentException(unknown(m));
                }
            }
        }
        return breaks || noEscape || append || code != 302 ? new Modifiers(breaks, noEscape, append, code) : NONE;
    }

    private static void requires(boolean accepted, String modifier, String rule, String which) {
        if (!accepted) {
            throw new IllegalArgumentException("[" + modifier + "] does not apply to " + rule + ": only to " + which);
        }
    }

    private static int code(String value) {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "permanent":
                return 301;
            case "temp":
                return 302;
            case "seeother":
                return 303;
            default:
                try {
                    int n = Integer.parseInt(value);
                    if (n >= 300 && n <= 399) {
                        return n;
                    }
                } catch (NumberFormatException e) {
                    // named below with what is expected
                }
                throw new IllegalArgumentException("[CODE=" + value + "]: expected permanent (301), temp (302),"
                        + " seeother (303) or a number from 300 to 399");
        }
    }

    private static String unknown(String modifier) {
        String lower = modifier.toLowerCase(Locale.ROOT);
        if (lower.equals("restart") || lower.equals("compound") || lower.startsWith("skip")) {
            return "[" + modifier + "] is not supported by jwd: write the rules in the order they are to run ("
                    + "SAP no longer recommends compound and skip; restart would run the file again)";
        }
        return "unknown modifier [" + modifier + "]: expected break, noescape, qsappend, qsreplace or CODE=<code>";
    }

    @Override
    public String toString() {
        return "Modifiers[" + (breaks ? "break " : "") + (noEscape ? "noescape " : "") + (queryAppend ? "qsappend "
                : "") + "CODE=" + redirectCode + "]";
    }
}
