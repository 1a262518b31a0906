package org.jwd.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.jwd.config.ServerType;

/**
 * Reads SAP's URL mapping table as the ICF serves it at {@code /sap/public/icf_info/icr_urlprefix}
 * ({@code wdisp/url_map_location}) and as the Workload Distribution pages write {@code urlinfo.txt}: a line
 * {@code version 1.0}, then one prefix a line, {@code PREFIX=/sap/bc/&GROUP=<group>&CASE=&VHOST=*.*;&STACK=ABAP}.
 * Sources: SAP Help, "Server Groups in the Internet Communication Framework"
 * (help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm) and "Configuring
 * the SAP Web Dispatcher" of Workload Distribution
 * (help.sap.com/saphelp_sm71_sp13/helpdata/en/87/252c4142aef623e10000000a155106/content.htm).
 *
 * <p>{@code PREFIX} is the prefix; {@code GROUP} the logon group whose members serve it (empty: none);
 * {@code STACK} {@code ABAP} or {@code J2EE}, ABAP when absent; {@code CASE=X} (or {@code 1}) a case-sensitive
 * prefix, an empty {@code CASE} (or {@code 0}) a case-insensitive one, and anything else is read case-insensitive
 * and reported. {@code VHOST} and unknown fields are ignored: jwd does not route by virtual host. Lines in jwd's
 * configuration syntax ({@code /sap/bc/}, {@code case:/sap/bc/}) are read too, as ABAP prefixes of no group.
 * Lines end CRLF or LF; blank lines and lines starting with '#' are skipped; a line that cannot be read is
 * reported and skipped. Reading and deciding stay apart: the {@code /} prefix is returned as written, for the
 * caller to refuse.
 */
public final class IcrUrlPrefixParser {
    private static final Pattern VERSION = Pattern.compile("(?i)version\\s+\\d+\\.\\d+");

    /**
     * One line of the table.
     *
     * @param group the logon group of {@code GROUP=}, or {@code null}
     * @param stack {@code STACK=}: ABAP or J2EE
     */
    public record Entry(UrlPrefix prefix, String group, ServerType stack) {
        @Override
        public String toString() {
            return prefix + (group == null ? "" : " group " + group) + " " + stack.key();
        }
    }

    /** What a body says: its entries in order, and one message per line not read as written. */
    public record Result(List<Entry> entries, List<String> problems) {
        public Result {
            entries = List.copyOf(entries);
            problems = List.copyOf(problems);
        }
    }

    private IcrUrlPrefixParser() {
    }

    /** Reads a body; never throws: what it cannot read is in {@link Result#problems()}. */
    public static Result parse(String body) {
        List<Entry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String[] lines = body.split("\r\n|\r|\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#") || VERSION.matcher(line).matches()) {
                continue;
            }
            try {
                entries.add(line.startsWith("/") || UrlPrefix.startsWithCaseForm(line)
                        ? new Entry(UrlPrefix.parse(line), null, ServerType.ABAP)
                        : fields(line, "line " + (i + 1), problems));
            } catch (IllegalArgumentException e) {
                problems.add("line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return new Result(entries, problems);
    }

    /** {@code PREFIX=/sap/bc/&GROUP=G&CASE=X&VHOST=*&STACK=ABAP}; field names in any case. */
    private static Entry fields(String line, String where, List<String> problems) {
        String prefix = null;
        String caseFlag = null;
        String group = null;
        String stack = null;
        for (String field : line.split("&")) {
            int eq = field.indexOf('=');
            String name = (eq < 0 ? field : field.substring(0, eq)).strip().toUpperCase(Locale.ROOT);
            String value = eq < 0 ? "" : field.substring(eq + 1).strip();
            switch (name) {
                case "PREFIX" -> prefix = value;
                case "CASE" -> caseFlag = value;
                case "GROUP" -> group = value.isEmpty() ? null : value;
                case "STACK" -> stack = value;
                default -> {
                    // VHOST and fields of later releases: jwd does not route by them
                }
            }
        }
        if (prefix == null) {
            throw new IllegalArgumentException(BadPathException.quote(line) + " has no PREFIX=");
        }
        UrlPrefix parsed = UrlPrefix.parse(prefix);
        return new Entry(new UrlPrefix(parsed.prefix(), caseSensitive(caseFlag, where, problems)), group,
                stack(stack, where, problems));
    }

    private static boolean caseSensitive(String caseFlag, String where, List<String> problems) {
        return switch (caseFlag == null ? "" : caseFlag.toUpperCase(Locale.ROOT)) {
            case "X", "1" -> true;
            case "", "0" -> false;
            default -> {
                problems.add(where + ": CASE=" + BadPathException.quote(caseFlag)
                        + " is neither X, 1, 0 nor empty; read as case-insensitive");
                yield false;
            }
        };
    }

    private static ServerType stack(String stack, String where, List<String> problems) {
        if (stack == null || stack.isEmpty()) {
            return ServerType.ABAP;
        }
        ServerType type = ServerType.parse(stack);
        if (type == null) {
            problems.add(where + ": STACK=" + BadPathException.quote(stack) + " is neither ABAP nor J2EE; read as"
                    + " ABAP");
            return ServerType.ABAP;
        }
        return type;
    }
}
