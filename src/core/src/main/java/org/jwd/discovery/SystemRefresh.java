package org.jwd.discovery;

import java.util.List;

import org.jwd.config.Durations;
import org.jwd.config.ServerType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One system's discovery: asks its message server for the server list, then the ICF's lists of a server of it,
 * and builds a new view from the answers; keeps the last good answers, view and status. A failed, timed-out,
 * garbage or empty answer keeps the last good view: one WARN when an outage begins, one INFO when it ends. The
 * ICF's lists failing alone keeps their last good answers with the new server list. Guarded by the
 * {@link Discovery}'s lock.
 */
final class SystemRefresh {
    private static final Logger LOG = LoggerFactory.getLogger(SystemRefresh.class);

    private final DiscoveryConfig.Source source;
    private final DiscoveryConfig config;
    private final ViewBuilder builder;
    private final Changes changes = new Changes();
    private Answers answers;
    private SystemView view;
    private long refreshedAt;
    private String lastError;
    private long failingSince;
    private long keptSince;
    private List<String> problems = List.of();
    /** The last problem of the ICF's lists, warned of once. */
    private String icfProblem;

    SystemRefresh(DiscoveryConfig.Source source, DiscoveryConfig config) {
        this.source = source;
        this.config = config;
        this.builder = new ViewBuilder(config);
    }

    /** Starts from kept answers (a restart while SAP is away); {@code false} when they no longer build a view. */
    boolean keep(Answers kept) {
        try {
            install(kept, builder.build(source.key(), kept), kept.atMillis());
            keptSince = kept.atMillis();
            return true;
        } catch (InfoFormatException e) {
            LOG.warn("jwd: discovery of {}: the kept view cannot be read ({}): it is not used", name(), e.getMessage());
            return false;
        }
    }

    /**
     * Asks SAP once. Never throws but for an interrupt.
     *
     * @return the new view when it differs from the one in force, else {@code null}
     */
    SystemView refresh(InfoFetcher fetcher, long now) throws InterruptedException {
        Answers next;
        ServerList list;
        try {
            String body = fetcher.fetch(source.serverList());
            list = ServerListParser.parse(body);
            next = new Answers(body, null, null, null, null, source.serverList().toString(), null, now);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return failed("message server " + source.serverList() + ": " + InfoFetcher.describe(e), now);
        }
        if (list.instances().isEmpty()) {
            return failed("message server " + source.serverList() + ": the server list names no instance"
                    + (list.problems().isEmpty() ? "" : " (" + list.problems().get(0) + ")"), now);
        }
        next = withIcf(next, list, fetcher);
        ViewBuilder.Built built;
        try {
            built = builder.build(source.key(), next);
        } catch (InfoFormatException e) {
            return failed("message server " + source.serverList() + ": " + e.getMessage(), now);
        }
        return install(next, built, now);
    }

    /** The answers with the ICF's lists of a server that answered, else with the last good ones. */
    private Answers withIcf(Answers next, ServerList list, InfoFetcher fetcher) throws InterruptedException {
        Locations at = config.locations();
        IcfFetch icf = new IcfFetch(fetcher);
        IcfFetch.Result abap = icf.fetch(list, at.urlMap(), at.groupInfo(), ServerType.ABAP);
        IcfFetch.Result java = icf.fetch(list, at.j2eeUrlMap(), at.j2eeGroupInfo(), ServerType.J2EE);
        Answers kept = answers == null ? next : next.withIcf(answers);
        if (!abap.failures().isEmpty() || !java.failures().isEmpty()) {
            LOG.debug("jwd: discovery of {}: servers that did not give the ICF's lists: {} {}", name(),
                    abap.failures(), java.failures());
        }
        if (abap.source() != null) {
            icfProblem = null;
        } else if (at.urlMap() != null && !abap.failures().isEmpty()) {
            problemOnce("no ABAP server gave the URL mapping table and logon groups (" + String.join("; ",
                    abap.failures()) + "): the last good ones stay");
        }
        Answers fresh = new Answers(null, abap.urlMap(), abap.groups(), java.urlMap(), java.groups(), null,
                abap.source() != null ? abap.source() : java.source(), next.atMillis());
        return kept.withIcf(fresh);
    }

    /** A WARN for an ICF problem the first time it shows, not at every refresh. */
    private void problemOnce(String problem) {
        String kind = problem.substring(0, Math.min(problem.indexOf('('), problem.length()));
        if (icfProblem == null || !icfProblem.startsWith(kind)) {
            LOG.warn("jwd: discovery of {}: {}", name(), problem);
        }
        icfProblem = problem;
    }

    private SystemView install(Answers next, ViewBuilder.Built built, long now) {
        if (failingSince > 0) {
            LOG.info("jwd: discovery of {}: {} answers again after {}", name(), source.serverList(),
                    Durations.format(java.time.Duration.ofMillis(Math.max(0, now - failingSince))));
        }
        if (!built.problems().equals(problems) && !built.problems().isEmpty()) {
            LOG.warn("jwd: discovery of {}: {} things left out or read with a default: {}", name(),
                    built.problems().size(), String.join("; ", built.problems()));
        }
        problems = built.problems();
        failingSince = 0;
        lastError = null;
        refreshedAt = now;
        keptSince = 0;
        SystemView before = view;
        answers = next;
        if (before != null && before.servers().equals(built.view().servers())
                && before.logonGroups().equals(built.view().logonGroups())
                && before.abapPrefixes().equals(built.view().abapPrefixes())) {
            view = built.view();
            return null;
        }
        view = built.view();
        for (String change : changes.record(before, view, now)) {
            LOG.info("jwd: discovery of {}: {}", name(), change);
        }
        return view;
    }

    private SystemView failed(String error, long now) {
        if (failingSince == 0) {
            failingSince = now;
            LOG.warn("jwd: discovery of {}: {}; keeping the last good view ({})", name(), error,
                    view == null ? "none yet: no server discovered" : view.servers().size() + " servers of "
                            + java.time.Instant.ofEpochMilli(answers.atMillis()));
        } else {
            LOG.debug("jwd: discovery of {} still fails: {}", name(), error);
        }
        lastError = error;
        return null;
    }

    private String name() {
        return source.sid() == null ? "the system" : "system " + source.sid();
    }

    SystemView view() {
        return view;
    }

    Answers answers() {
        return answers;
    }

    DiscoveryConfig.Source source() {
        return source;
    }

    SystemStatus status() {
        return new SystemStatus(source.key(), source.serverList().toString(),
                answers == null ? null : answers.icfSource(), refreshedAt, lastError, failingSince, keptSince,
                view == null ? 0 : view.servers().size(), changes.last(), problems);
    }
}
