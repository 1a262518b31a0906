package org.jwd.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the longest {@link UrlPrefix} that covers a path, without allocating: built once, read by any
 * number of threads.
 *
 * <p>A prefix P (ending in '/') covers path p when P is a prefix of {@code p + "/"} (the extra '/' only when
 * p does not end with one). Since P ends in '/', a match always ends at a segment boundary, so the only
 * candidates are the prefixes of p ending at one of its '/' (plus p + "/" itself): a path of k segments
 * costs k hash probes, whatever the number of prefixes. The hash of each candidate is
 * {@link String#hashCode()}'s, computed incrementally while scanning, so no substring is ever built.
 * Case-insensitive prefixes live in a second table keyed by their folded form and are probed with the
 * folded hash. At equal length a case-sensitive prefix wins.
 *
 * @param <V> what a prefix maps to
 */
final class PrefixIndex<V> {
    private final Table exact;
    private final Table folded;
    /** No candidate longer than the longest prefix can match: the scan stops there. */
    private final int maxLength;
    private final List<UrlPrefix> prefixes;

    /** The first value given for a prefix (or for a folded form) wins; later duplicates are ignored. */
    PrefixIndex(Map<UrlPrefix, V> entries) {
        Map<String, Object> exactKeys = new LinkedHashMap<>();
        Map<String, Object> foldedKeys = new LinkedHashMap<>();
        int max = 0;
        for (Map.Entry<UrlPrefix, V> e : entries.entrySet()) {
            UrlPrefix p = e.getKey();
            if (p.caseSensitive()) {
                exactKeys.putIfAbsent(p.prefix(), e.getValue());
            } else {
                foldedKeys.putIfAbsent(p.foldedPrefix(), e.getValue());
            }
            max = Math.max(max, p.prefix().length());
        }
        this.exact = exactKeys.isEmpty() ? null : new Table(exactKeys);
        this.folded = foldedKeys.isEmpty() ? null : new Table(foldedKeys);
        this.maxLength = max;
        this.prefixes = List.copyOf(new ArrayList<>(entries.keySet()));
    }

    /** The value of the longest prefix covering {@code path} (a normalized path), or {@code null}. */
    @SuppressWarnings("unchecked")
    V longestMatch(String path) {
        if (maxLength == 0) {
            return null;
        }
        int n = path.length();
        int limit = Math.min(n, maxLength);
        int exactHash = 0;
        int foldedHash = 0;
        Object best = null;
        boolean fold = folded != null;
        for (int i = 0; i < limit; i++) {
            char c = path.charAt(i);
            exactHash = 31 * exactHash + c;
            if (fold) {
                foldedHash = 31 * foldedHash + UrlPrefix.fold(c);
            }
            if (c == '/') {
                Object v = probe(path, i + 1, exactHash, foldedHash);
                if (v != null) {
                    best = v;
                }
            }
        }
        if (n < maxLength && path.charAt(n - 1) != '/') {
            // the last segment counts as a directory: /sap/bc/gui is covered by /sap/bc/gui/
            Object v = probe(path, n + 1, 31 * exactHash + '/', 31 * foldedHash + '/');
            if (v != null) {
                best = v;
            }
        }
        return (V) best;
    }

    private Object probe(String path, int length, int exactHash, int foldedHash) {
        Object v = exact == null ? null : exact.get(path, length, exactHash, false);
        if (v == null && folded != null) {
            v = folded.get(path, length, foldedHash, true);
        }
        return v;
    }

    @Override
    public String toString() {
        return prefixes.toString();
    }

    /** Open addressing, linear probing, at most half full. */
    private static final class Table {
        private final int[] hashes;
        private final String[] keys;
        private final Object[] values;
        private final int mask;

        Table(Map<String, Object> entries) {
            int capacity = Integer.highestOneBit(Math.max(2, entries.size()) * 2 - 1) << 1;
            hashes = new int[capacity];
            keys = new String[capacity];
            values = new Object[capacity];
            mask = capacity - 1;
            entries.forEach((key, value) -> {
                int h = key.hashCode();
                int i = spread(h) & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                hashes[i] = h;
                keys[i] = key;
                values[i] = value;
            });
        }

        private static int spread(int h) {
            return h ^ (h >>> 16);
        }

        /** The value of the key equal to path[0, length) (position n being a virtual '/'), or null. */
        Object get(String path, int length, int hash, boolean fold) {
            for (int i = spread(hash) & mask; keys[i] != null; i = (i + 1) & mask) {
                if (hashes[i] == hash && keys[i].length() == length && equal(keys[i], path, length, fold)) {
                    return values[i];
                }
            }
            return null;
        }

        private static boolean equal(String key, String path, int length, boolean fold) {
            int n = path.length();
            for (int j = 0; j < length; j++) {
                char c = j < n ? path.charAt(j) : '/';
                if ((fold ? UrlPrefix.fold(c) : c) != key.charAt(j)) {
                    return false;
                }
            }
            return true;
        }
    }
}
