package org.jwd.discovery;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code icr_groups} says ({@link IcrGroupsParser}): the instances it knows and the logon groups with their
 * members, by SAP instance name.
 *
 * @param groups each logon group's members, in the order given
 */
public record IcrGroups(List<String> instances, Map<String, List<String>> groups, List<String> problems) {
    public IcrGroups {
        instances = List.copyOf(instances);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        groups.forEach((g, members) -> copy.put(g, List.copyOf(members)));
        groups = Collections.unmodifiableMap(copy);
        problems = List.copyOf(problems);
    }

    public static final IcrGroups NONE = new IcrGroups(List.of(), Map.of(), List.of());
}
