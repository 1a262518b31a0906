package org.jwd.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SAP's URL mapping table: the URL prefixes the ABAP stack's ICF serves ({@code icf.url_prefixes}, and the
 * ones loaded from {@code icf.url_prefixes_url}). Immutable; a refresh builds a new table and swaps it in.
 *
 * <p><b>The rule.</b> SAP: "With URL {@code /A/B/page.htm} the prefix to be examined is {@code /A/B}; if the
 * table contains {@code /A/} but not {@code /A/B/}, the prefix is also an ICF prefix". Read precisely: a path
 * is ABAP when some entry E, normalized to end with '/', is a prefix of the path followed by a '/'
 * ({@code path + "/"}, or the path itself when it already ends with '/'). Because E ends with '/', E can only
 * match at a segment boundary. Hence, with the entries in brackets:
 * <ul>
 * <li>{@code /A/B/page.htm} is ABAP [{@code /A/}]: {@code /A/B/page.htm/} starts with {@code /A/};</li>
 * <li>{@code /sap/bc/gui} is ABAP [{@code /sap/bc/gui/}]: the last segment counts as a directory;</li>
 * <li>{@code /A} is ABAP [{@code /A/}], for the same reason;</li>
 * <li>{@code /logonx/} is not ABAP [{@code /logon/}]: {@code /logonx/} does not start with {@code /logon/}.</li>
 * </ul>
 * Entries are matched regardless of case, as the ICF reads a path, unless written {@code case:/prefix/} (see
 * {@link UrlPrefix}): {@code /SAP/BC/x} is ABAP with {@code /sap/bc/}. Root
 * URLs are not looked up here at all: {@link GroupResolver} sends them by {@code is/HTTP/default_root_hdl}.
 *
 * <p>The entry {@code /} (in any spelling that normalizes to it, {@code icase:/} too) is refused: it would cover
 * every path and send every non-root URL to the ABAP servers, J2EE traffic included, which is never what a
 * landscape means; SAP's ICF list holds no such entry.
 */
public final class UrlMappingTable {
    public static final UrlMappingTable EMPTY = new UrlMappingTable(List.of());

    private final List<UrlPrefix> entries;
    private final PrefixIndex<UrlPrefix> index;

    /** @throws IllegalArgumentException naming the entry {@code /}: see the class comment */
    private UrlMappingTable(Collection<UrlPrefix> entries) {
        for (UrlPrefix p : entries) {
            if (p.prefix().equals("/")) {
                throw new IllegalArgumentException("URL prefix " + BadPathException.quote(p.toString())
                        + " refused: it covers every URL, so every request would go to the ABAP servers");
            }
        }
        // a set: the same prefix from the file and from the URL is one entry
        Set<UrlPrefix> unique = new LinkedHashSet<>(entries);
        this.entries = List.copyOf(unique);
        Map<UrlPrefix, UrlPrefix> self = new LinkedHashMap<>();
        unique.forEach(p -> self.put(p, p));
        this.index = new PrefixIndex<>(self);
    }

    /** @throws IllegalArgumentException when an entry is {@code /} */
    public static UrlMappingTable of(Collection<UrlPrefix> entries) {
        return entries.isEmpty() ? EMPTY : new UrlMappingTable(entries);
    }

    /**
     * Reads entries in configuration syntax ({@code /sap/bc/}, {@code case:/sap/bc/}).
     *
     * @throws IllegalArgumentException naming the first entry that is not a valid prefix, or the entry {@code /}
     */
    public static UrlMappingTable parse(Collection<String> entries) {
        List<UrlPrefix> prefixes = new ArrayList<>(entries.size());
        for (String e : entries) {
            prefixes.add(UrlPrefix.parse(e));
        }
        return of(prefixes);
    }

    /** The longest entry covering this normalized path, or {@code null} when the path is not ABAP. */
    public UrlPrefix match(String path) {
        return index.longestMatch(path);
    }

    public boolean isAbap(String path) {
        return match(path) != null;
    }

    /** This table's entries followed by those of {@code other} that it lacks. */
    public UrlMappingTable merge(UrlMappingTable other) {
        if (other.entries.isEmpty()) {
            return this;
        }
        if (entries.isEmpty()) {
            return other;
        }
        List<UrlPrefix> all = new ArrayList<>(entries);
        all.addAll(other.entries);
        return new UrlMappingTable(all);
    }

    /** In the order given, without duplicates. */
    public List<UrlPrefix> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UrlMappingTable other && Set.copyOf(entries).equals(Set.copyOf(other.entries));
    }

    @Override
    public int hashCode() {
        return Set.copyOf(entries).hashCode();
    }

    /** The count and the first entries: a loaded table has hundreds. */
    @Override
    public String toString() {
        int shown = Math.min(entries.size(), 10);
        return "UrlMappingTable(" + entries.size() + " entries: " + String.join(", ",
                entries.subList(0, shown).stream().map(UrlPrefix::toString).toList())
                + (shown < entries.size() ? ", ..." : "") + ")";
    }
}
