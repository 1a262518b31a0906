package org.jwd.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code src/bench/run}'s check of a target before it is measured, from the lines {@code src/bench/wrk-check.lua}
 * prints: every answer 200 with the backend's ~1 KB body and its {@code X-Backend} header; without cookies the
 * backend's {@code Set-Cookie}, and both backends for a target that spreads (only b1 for {@code direct}); with
 * sessions, each session on one backend and the sessions on both, for a target that sticks.
 *
 * @param mode    {@code none} (no cookie) or {@code sticky} (32 sessions)
 * @param target  the target's name ({@code direct} reaches b1 alone)
 * @param spreads whether the target balances cookieless requests over both backends
 * @param sticks  whether the target keeps a session on one backend
 */
public record WrkCheck(String mode, String target, boolean spreads, boolean sticks) {

    /** @return what is wrong, one problem per element; empty when the target passed */
    public List<String> problems(String output) {
        long[] counts = null;
        Set<String> backends = new HashSet<>();
        Map<String, Set<String>> backendsOfSession = new TreeMap<>();
        for (String line : output.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 13 && f[0].equals("check") && f[1].equals("responses")) {
                counts = new long[] {parse(f[2]), parse(f[4]), parse(f[6]), parse(f[8]), parse(f[10]), parse(f[12])};
            } else if (f.length == 5 && f[0].equals("check") && f[1].equals("seen")) {
                backends.add(f[3]);
                backendsOfSession.computeIfAbsent(f[2], s -> new HashSet<>()).add(f[3]);
            }
        }
        if (counts == null) {
            return List.of("wrk gave no check output");
        }
        long responses = counts[0];
        if (responses == 0) {
            return List.of(mode + ": no response at all");
        }
        return problems(responses, counts[1], counts[2], counts[3], counts[4], counts[5], backends,
                backendsOfSession);
    }

    private List<String> problems(long responses, long ok, long setCookie, long noBackend, long minBody, long maxBody,
                                  Set<String> backends, Map<String, Set<String>> backendsOfSession) {
        boolean none = mode.equals("none");
        boolean both = backends.contains("b1") && backends.contains("b2");
        List<String> problems = new ArrayList<>();
        if (ok != responses) {
            problems.add(mode + ": " + (responses - ok) + " of " + responses + " responses not 200");
        }
        if (noBackend > 0) {
            problems.add(mode + ": " + noBackend + " responses without X-Backend");
        }
        if (minBody < 1000 || maxBody > 1100) {
            problems.add(mode + ": body of " + minBody + " to " + maxBody + " bytes, not ~1 KB");
        }
        if (none && setCookie != responses) {
            problems.add(mode + ": " + (responses - setCookie) + " of " + responses
                    + " responses without the backend Set-Cookie");
        }
        if (none && target.equals("direct") && (backends.contains("b2") || !backends.contains("b1"))) {
            problems.add("direct does not reach b1 alone");
        }
        if (none && spreads && !both) {
            problems.add(mode + ": does not spread requests over b1 and b2");
        }
        if (!none && sticks) {
            backendsOfSession.forEach((session, seen) -> {
                if (seen.size() > 1) {
                    problems.add("session " + session + " answered by " + seen.size() + " backends");
                }
            });
            if (!both) {
                problems.add("sticky: " + backendsOfSession.size() + " sessions all on one backend");
            }
        }
        return problems;
    }

    private static long parse(String number) {
        return Long.parseLong(number);
    }
}
