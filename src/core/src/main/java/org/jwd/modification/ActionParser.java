package org.jwd.modification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads one rule line of an action file into its {@link Action}, everything it needs compiled once; a rule jwd does
 * not know or does not support is refused by name, never skipped.
 */
final class ActionParser {
    private record HeaderRule(HeaderEdit.Kind kind, boolean response) {
    }

    private record UrlRule(UrlAction.Operation operation, boolean ignoreCase, boolean raw) {
    }

    private static final Map<String, HeaderRule> HEADER_RULES = Map.of(
            "setheader", new HeaderRule(HeaderEdit.Kind.SET, false),
            "setheaderifempty", new HeaderRule(HeaderEdit.Kind.SET_IF_EMPTY, false),
            "appendheader", new HeaderRule(HeaderEdit.Kind.APPEND, false),
            "removeheader", new HeaderRule(HeaderEdit.Kind.REMOVE, false),
            "setresponseheader", new HeaderRule(HeaderEdit.Kind.SET, true),
            "setresponseheaderifempty", new HeaderRule(HeaderEdit.Kind.SET_IF_EMPTY, true),
            "appendresponseheader", new HeaderRule(HeaderEdit.Kind.APPEND, true),
            "removeresponseheader", new HeaderRule(HeaderEdit.Kind.REMOVE, true));

    private static final Map<String, UrlRule> URL_RULES = Map.ofEntries(
            Map.entry("regrewriteurl", new UrlRule(UrlAction.Operation.REWRITE, false, false)),
            Map.entry("regirewriteurl", new UrlRule(UrlAction.Operation.REWRITE, true, false)),
            Map.entry("regrewriterawurl", new UrlRule(UrlAction.Operation.REWRITE, false, true)),
            Map.entry("regirewriterawurl", new UrlRule(UrlAction.Operation.REWRITE, true, true)),
            Map.entry("regredirecturl", new UrlRule(UrlAction.Operation.REDIRECT, false, false)),
            Map.entry("regiredirecturl", new UrlRule(UrlAction.Operation.REDIRECT, true, false)),
            Map.entry("regforbiddenurl", new UrlRule(UrlAction.Operation.FORBIDDEN, false, false)),
            Map.entry("regiforbiddenurl", new UrlRule(UrlAction.Operation.FORBIDDEN, true, false)),
            Map.entry("reggoneurl", new UrlRule(UrlAction.Operation.GONE, false, false)),
            Map.entry("regigoneurl", new UrlRule(UrlAction.Operation.GONE, true, false)));

    /** SAP's rules that jwd refuses by name rather than as unknown. */
    private static final Set<String> UNSUPPORTED = Set.of("regrewriteheader", "regirewriteheader",
            "regrewriteresponseheader", "regirewriteresponseheader", "removecookie");

    /** Headers that frame the message or the connection: jwd sets them itself, a rule may not. */
    private static final Set<String> FRAMING = Set.of("content-length", "transfer-encoding", "connection",
            "keep-alive", "te", "trailer", "upgrade", "proxy-connection");

    /** A header name: RFC 9110's token. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private ActionParser() {
    }

    /**
     * @param words the line's words, the rule's name first
     * @throws IllegalArgumentException naming the rule and what is wrong
     */
    static Action parse(Where where, List<Tokens.Token> words) {
        List<Tokens.Token> rest = new ArrayList<>(words);
        List<String> modifiers = Tokens.modifiers(rest);
        String name = rest.get(0).text();
        String key = name.toLowerCase(Locale.ROOT);
        List<Tokens.Token> args = rest.subList(1, rest.size());
        HeaderRule header = HEADER_RULES.get(key);
        if (header != null) {
            return header(where, header, name, args, Modifiers.parse(modifiers, Modifiers.Accepts.BREAK_ONLY, name));
        }
        UrlRule url = URL_RULES.get(key);
        if (url != null) {
            Modifiers.Accepts accepts = switch (url.operation()) {
                case REDIRECT -> Modifiers.Accepts.REDIRECT;
                case REWRITE -> Modifiers.Accepts.URL;
                default -> Modifiers.Accepts.BREAK_ONLY;
            };
            return url(where, url, name, args, Modifiers.parse(modifiers, accepts, name));
        }
        if (key.equals("nop")) {
            if (!args.isEmpty()) {
                throw new IllegalArgumentException("NOP takes nothing but modifiers ([break])");
            }
            return new NopAction(where, Modifiers.parse(modifiers, Modifiers.Accepts.BREAK_ONLY, name).breaks());
        }
        if (UNSUPPORTED.contains(key)) {
            throw new IllegalArgumentException("the rule " + name + " is not supported by jwd");
        }
        throw new IllegalArgumentException("unknown rule '" + name + "': expected if, a header rule ("
                + "SetHeader, SetHeaderIfEmpty, AppendHeader, RemoveHeader, SetResponseHeader, SetResponseHeaderIfEmpty,"
                + " AppendResponseHeader, RemoveResponseHeader), a URL rule (RegRewriteUrl, RegRewriteRawUrl,"
                + " RegRedirectUrl, RegForbiddenUrl, RegGoneUrl, each also with I for case-insensitive patterns) or NOP");
    }

    private static Action header(Where where, HeaderRule rule, String name, List<Tokens.Token> args,
                                 Modifiers modifiers) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException(name + " needs a header name: expected " + name + " <name>"
                    + (rule.kind() == HeaderEdit.Kind.REMOVE ? "" : " <value>"));
        }
        String header = args.get(0).text();
        checkHeaderName(header, rule.response(), name);
        Template value = null;
        if (rule.kind() == HeaderEdit.Kind.REMOVE) {
            if (args.size() > 1) {
                throw new IllegalArgumentException(name + " takes a header name and no value");
            }
        } else if (args.size() < 2) {
            throw new IllegalArgumentException(name + " " + header + " needs a value (\"\" for an empty one)");
        } else {
            StringBuilder text = new StringBuilder();
            for (Tokens.Token t : args.subList(1, args.size())) {
                text.append(text.isEmpty() ? "" : " ").append(t.text());
            }
            value = Template.parse(text.toString(), false);
        }
        return new HeaderAction(where, rule.kind(), rule.response(), header, header.toLowerCase(Locale.ROOT), value,
                modifiers.breaks());
    }

    private static void checkHeaderName(String header, boolean response, String rule) {
        String lower = header.toLowerCase(Locale.ROOT);
        if (lower.equals(Modification.TARGET_SID_PSEUDO_HEADER) && !response) {
            return;
        }
        if (header.startsWith("~")) {
            throw new IllegalArgumentException("the pseudo header " + header + " is not supported by jwd: of SAP's"
                    + " pseudo headers jwd knows " + Modification.TARGET_SID_PSEUDO_HEADER + " (in request rules)");
        }
        if (!TOKEN.matcher(header).matches()) {
            throw new IllegalArgumentException("'" + header + "' is no header name");
        }
        if (FRAMING.contains(lower)) {
            throw new IllegalArgumentException(rule + " " + header + " is refused: jwd frames the message and"
                    + " its connection itself");
        }
    }

    private static Action url(Where where, UrlRule rule, String name, List<Tokens.Token> args, Modifiers modifiers) {
        boolean refusal = rule.operation() == UrlAction.Operation.FORBIDDEN
                || rule.operation() == UrlAction.Operation.GONE;
        if (args.isEmpty() || args.size() > 2 || !refusal && args.size() < 2) {
            throw new IllegalArgumentException("expected " + name + " <pattern> " + (refusal ? "[-]" : "<dest>")
                    + " [modifiers]" + (args.size() > 2 ? ": a pattern and a substitution have no blanks" : ""));
        }
        String written = args.get(0).text();
        boolean negated = written.startsWith("!");
        Regex pattern = ConditionParser.compile(negated ? written.substring(1) : written, rule.ignoreCase());
        Template dest = null;
        if (!refusal && !args.get(1).text().equals("-")) {
            dest = Template.parse(args.get(1).text(), true);
            int groups = negated ? 0 : pattern.groupCount();
            if (dest.maxGroup() > groups) {
                throw new IllegalArgumentException("'" + dest + "' names $" + dest.maxGroup() + " but the pattern '"
                        + written + "' has " + groups + (groups == 1 ? " group" : " groups")
                        + (negated ? " (a negated pattern matches nothing to name)" : ""));
            }
        } else if (rule.operation() == UrlAction.Operation.REDIRECT) {
            throw new IllegalArgumentException(name + " needs the URL to redirect to, not '-'");
        }
        return new UrlAction(where, rule.operation(), rule.raw(), pattern, negated, dest, modifiers);
    }
}
