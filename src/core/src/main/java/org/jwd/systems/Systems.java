package org.jwd.systems;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;

/**
 * The systems of a configuration: its {@code wdisp/system_<xx>} entries in entry order, the conflict resolution,
 * the default system; or, without any entry, the one {@link SystemEntry#implicit() implicit system}, with which
 * every configuration written before systems existed means what it meant.
 *
 * <p>A SID may have several entries (jwd's addition; SAP's documentation names one entry per system): the first
 * describes the system ({@code SSL_ENCRYPT}, {@code EXTSRV}, {@code STICKY}), later ones only add ways to reach it,
 * so that one system can be reached by a URL prefix on one port and by everything on another. Entries of one SID
 * never overlap each other.
 *
 * <p>Read from the whole configuration by {@link #read}, which checks everything that concerns systems at once
 * (entries, overlaps, the default, every {@code system.<SID>.*} key) and reports every problem with its file and
 * line, together with the file's other problems, so a start and a reload refuse the same configurations.
 */
public final class Systems {
    /** jwd's key: the system of requests that meet no entry's criteria; without it they get 404. */
    public static final String DEFAULT_SYSTEM = "jwd.default_system";
    private static final Pattern ENTRY_KEY = Pattern.compile(Pattern.quote(SystemEntry.KEY_PREFIX) + "(.*)");
    /** SAP: {@code <xx>} is a number without a leading 0. */
    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,8}");
    private static final Systems IMPLICIT = new Systems(List.of(), ConflictResolution.REJECT, null, List.of());

    private final List<SystemEntry> entries;
    private final ConflictResolution conflictResolution;
    private final SystemEntry defaultSystem;
    private final List<Overlap> overlaps;
    /** Each SID's first entry, in entry order. */
    private final Map<String, SystemEntry> bySid = new LinkedHashMap<>();

    private Systems(List<SystemEntry> entries, ConflictResolution conflictResolution, SystemEntry defaultSystem,
                    List<Overlap> overlaps) {
        this.entries = List.copyOf(entries);
        this.conflictResolution = conflictResolution;
        this.defaultSystem = defaultSystem;
        this.overlaps = List.copyOf(overlaps);
        entries.forEach(e -> bySid.putIfAbsent(e.sid(), e));
    }

    /** The systems of a configuration without {@code wdisp/system_<xx>}. */
    public static Systems implicit() {
        return IMPLICIT;
    }

    /**
     * Reads the systems from a configuration's properties (all of them: {@code system.<SID>.*} keys are checked
     * here too), without a file: the problems name the keys alone.
     *
     * @throws ConfigException with one message per problem, each naming the key, its value and what is expected
     */
    public static Systems parse(Map<String, String> properties) throws ConfigException {
        KeyReader keys = KeyReader.of(properties, Path.of(""));
        Systems systems = read(keys);
        keys.check();
        return systems;
    }

    /**
     * Reads the systems from a configuration file's keys, reporting each problem to {@code keys}, located at its
     * key's line ({@code file:line: wdisp/system_1 = '...': ...}), to be reported with the file's other problems.
     *
     * @return the systems, or {@code null} when there were problems
     */
    public static Systems read(KeyReader keys) {
        int before = keys.problemCount();
        Map<String, String> properties = keys.values();
        List<SystemEntry> entries = entries(properties, keys);
        Map<String, SystemEntry> bySid = firstEntries(entries, properties, keys);
        ConflictResolution resolution = conflictResolution(properties, keys);
        List<Overlap> overlaps = overlaps(entries, resolution, keys);
        SystemEntry defaultSystem = defaultSystem(properties, bySid, entries, keys);
        SystemScope.check(properties, entries, keys);
        if (keys.problemCount() > before) {
            return null;
        }
        return entries.isEmpty() ? IMPLICIT : new Systems(entries, resolution, defaultSystem, overlaps);
    }

    /** The {@code wdisp/system_<xx>} entries that read well, in entry order. */
    private static List<SystemEntry> entries(Map<String, String> properties, KeyReader keys) {
        List<SystemEntry> entries = new ArrayList<>();
        // sorted, so that the problems come in the same order every time
        for (Map.Entry<String, String> p : new TreeMap<>(properties).entrySet()) {
            Matcher m = ENTRY_KEY.matcher(p.getKey());
            if (!m.matches() || p.getKey().equals(ConflictResolution.KEY)) {
                continue;
            }
            if (!NUMBER.matcher(m.group(1)).matches()) {
                keys.problemText(p.getKey(), p.getKey() + " = '" + p.getValue() + "': expected "
                        + SystemEntry.KEY_PREFIX + "<xx>, <xx> a number without a leading 0 (" + SystemEntry.KEY_PREFIX + "0, "
                        + SystemEntry.KEY_PREFIX + "1, ...)");
                continue;
            }
            SystemEntry entry = SystemEntryParser.parse(Integer.parseInt(m.group(1)), p.getValue(), keys);
            if (entry != null) {
                entries.add(entry);
            }
        }
        entries.sort(Comparator.comparingInt(SystemEntry::number));
        return entries;
    }

    /** Each SID's first entry, which describes the system; a later entry that describes it too is a problem. */
    private static Map<String, SystemEntry> firstEntries(List<SystemEntry> entries, Map<String, String> properties,
                                                         KeyReader keys) {
        Map<String, SystemEntry> bySid = new HashMap<>();
        for (SystemEntry e : entries) {
            SystemEntry first = bySid.putIfAbsent(e.sid(), e);
            if (first != null && (e.sslEncrypt() != null || !e.externalServers().isEmpty())) {
                keys.problemText(e.key(), e.key() + " = '" + properties.get(e.key()) + "': " + first.key()
                        + " is the first entry of "
                        + e.sid() + " and describes the system: expected later entries of " + e.sid()
                        + " to give only SID, SRCSRV, SRCURL and SRCVHOST (more ways to reach it)");
            }
        }
        return bySid;
    }

    private static ConflictResolution conflictResolution(Map<String, String> properties, KeyReader keys) {
        String resolutionText = properties.get(ConflictResolution.KEY);
        if (resolutionText == null) {
            return ConflictResolution.REJECT;
        }
        ConflictResolution resolution = ConflictResolution.parse(resolutionText);
        if (resolution == null) {
            keys.problemText(ConflictResolution.KEY, ConflictResolution.KEY + " = '" + resolutionText + "': expected "
                    + ConflictResolution.EXPECTED);
            return ConflictResolution.REJECT;
        }
        return resolution;
    }

    /** The pairs of entries of different systems that meet a request equally well; problems when rejected. */
    private static List<Overlap> overlaps(List<SystemEntry> entries, ConflictResolution resolution,
                                          KeyReader keys) {
        List<Overlap> overlaps = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            for (int j = i + 1; j < entries.size(); j++) {
                if (entries.get(i).sid().equals(entries.get(j).sid())) {
                    // two ways to one system: whichever matches, the request goes there
                    continue;
                }
                Overlap overlap = Overlap.between(entries.get(i), entries.get(j));
                if (overlap != null) {
                    overlaps.add(overlap);
                }
            }
        }
        if (resolution == ConflictResolution.REJECT) {
            for (Overlap o : overlaps) {
                // located at the later entry: the one that came to overlap
                keys.problemText(o.second().key(), o + ": expected criteria that tell them apart, or "
                        + ConflictResolution.KEY + " = 1 (the first in entry order takes such requests)");
            }
        }
        return overlaps;
    }

    /** {@code jwd.default_system}'s entry, or {@code null} when not given (or naming no system, reported). */
    private static SystemEntry defaultSystem(Map<String, String> properties, Map<String, SystemEntry> bySid,
                                             List<SystemEntry> entries, KeyReader keys) {
        String defaultSid = properties.get(DEFAULT_SYSTEM);
        if (defaultSid == null) {
            return null;
        }
        SystemEntry defaultSystem = bySid.get(defaultSid.strip());
        if (defaultSystem == null) {
            keys.problemText(DEFAULT_SYSTEM, DEFAULT_SYSTEM + " = '" + defaultSid + "': expected the SID of a "
                    + SystemEntry.KEY_PREFIX + "<xx> entry" + sids(entries));
        }
        return defaultSystem;
    }

    /** {@code ": one of ERP, PRT"}, or that there is none. */
    static String sids(List<SystemEntry> entries) {
        return entries.isEmpty() ? " (there is none)"
                : ": one of " + String.join(", ", entries.stream().map(SystemEntry::sid).distinct().toList());
    }

    /** Whether this is the one implicit system of a configuration without {@code wdisp/system_<xx>}. */
    public boolean isImplicit() {
        return entries.isEmpty();
    }

    /** The entries in entry order; for the implicit system, that one. */
    public List<SystemEntry> entries() {
        return isImplicit() ? List.of(SystemEntry.implicit()) : entries;
    }

    /**
     * The systems, each once, as the first entry of its SID (which describes it), in entry order: what has its own
     * servers, tables and configuration ({@link SystemScope#of}).
     */
    public List<SystemEntry> systems() {
        return isImplicit() ? List.of(SystemEntry.implicit()) : List.copyOf(bySid.values());
    }

    /** The system with this SID (its first entry), or {@code null}. */
    public SystemEntry system(String sid) {
        return bySid.get(sid);
    }

    public ConflictResolution conflictResolution() {
        return conflictResolution;
    }

    /** {@code jwd.default_system}, or {@code null}. */
    public SystemEntry defaultSystem() {
        return defaultSystem;
    }

    /**
     * Pairs of entries that meet a request equally well. Empty unless {@code wdisp/system_conflict_resolution=1}
     * (with 0 they are errors): worth a warning at start and reload.
     */
    public List<Overlap> overlaps() {
        return overlaps;
    }

    @Override
    public String toString() {
        if (isImplicit()) {
            return "one implicit system (no " + SystemEntry.KEY_PREFIX + "<xx>)";
        }
        return entries + ", " + conflictResolution + (defaultSystem == null ? "" : ", " + DEFAULT_SYSTEM + "="
                + defaultSystem.sid());
    }
}
