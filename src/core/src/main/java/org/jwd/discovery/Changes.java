package org.jwd.discovery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jwd.config.ServerConfig;

/**
 * What changed between two views of a system, in words, and the last {@value #KEPT} of those changes. Guarded by
 * the owner's lock.
 */
final class Changes {
    static final int KEPT = 20;
    private final Deque<SystemStatus.Change> last = new ArrayDeque<>();

    /** Records what changed from {@code before} ({@code null}: nothing known) to {@code after}; returns it. */
    List<String> record(SystemView before, SystemView after, long atMillis) {
        List<String> changes = between(before, after);
        for (String c : changes) {
            last.addFirst(new SystemStatus.Change(atMillis, c));
            while (last.size() > KEPT) {
                last.removeLast();
            }
        }
        return changes;
    }

    List<SystemStatus.Change> last() {
        return List.copyOf(last);
    }

    static List<String> between(SystemView before, SystemView after) {
        List<String> changes = new ArrayList<>();
        Map<String, ServerConfig> old = byId(before == null ? List.of() : before.servers());
        Map<String, ServerConfig> now = byId(after.servers());
        now.forEach((id, s) -> {
            ServerConfig was = old.get(id);
            if (was == null) {
                changes.add("added " + describe(s));
            } else {
                if (was.capacity() != s.capacity()) {
                    changes.add(id + ": capacity " + was.capacity() + " -> " + s.capacity());
                }
                if (!was.logonGroups().equals(s.logonGroups())) {
                    changes.add(id + ": logon groups " + sorted(was) + " -> " + sorted(s));
                }
                if (!Objects.equals(was.url(), s.url()) || !Objects.equals(was.httpsUrl(), s.httpsUrl())) {
                    changes.add(id + ": now " + describe(s));
                }
                if (was.state() != s.state()) {
                    changes.add(id + ": " + s.state().key() + " by wdisp/server_<xx>");
                }
            }
        });
        old.keySet().stream().filter(id -> !now.containsKey(id)).forEach(id -> changes.add("removed " + id
                + " (" + old.get(id).name() + ")"));
        List<String> groupsBefore = before == null ? List.of() : groupTexts(before);
        if (before != null && !groupsBefore.equals(groupTexts(after))) {
            changes.add("logon groups " + groupTexts(after));
        }
        if (before != null && !before.abapPrefixes().equals(after.abapPrefixes())) {
            changes.add("URL mapping table: " + after.abapPrefixes().size() + " ABAP prefixes");
        }
        return changes;
    }

    private static Map<String, ServerConfig> byId(List<ServerConfig> servers) {
        Map<String, ServerConfig> byId = new LinkedHashMap<>();
        servers.forEach(s -> byId.put(s.id(), s));
        return byId;
    }

    private static String describe(ServerConfig s) {
        return s.id() + " (" + s.type().key() + " " + (s.url() != null ? s.url() : s.httpsUrl()) + ", capacity "
                + s.capacity() + (s.logonGroups().isEmpty() ? "" : ", logon groups " + sorted(s)) + ")";
    }

    private static List<String> sorted(ServerConfig s) {
        return s.logonGroups().stream().sorted().toList();
    }

    private static List<String> groupTexts(SystemView view) {
        return view.logonGroups().stream().map(g -> g.name() + g.urlPrefixes()).sorted()
                .toList();
    }
}
