package org.jwd.launch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.jwd.config.AdminConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.SapProfile;
import org.jwd.config.Durations;
import org.jwd.config.ServerType;
import org.jwd.discovery.DiscoveryConfig;
import org.jwd.discovery.Locations;
import org.jwd.tls.PassthroughConfig;

/**
 * {@code bin/jwd check --config FILE [--host H] [--port N] [--https-port N]}: validates a configuration without
 * starting anything or binding a port, as {@code nginx -t} does: the same reading the start runs
 * ({@link JettyModules#decide}: every key, the files it names, the listeners), every problem with {@code file:line}.
 * Its report names, for every line, what jwd does with it: applied, mapped to a jwd key, read and not used (why), so
 * that an SAP Web Dispatcher profile's migration is read off it; a refused line is a problem, with what to write.
 * Exit status 0 when the file would start (nothing refused), 1 with its problems, 2 for a usage error.
 */
public final class Check {
    static final int PROBLEMS = 1;
    static final int USAGE = 2;
    static final String USAGE_TEXT = "usage: bin/jwd check --config FILE [--host H] [--port N] [--https-port N]";

    private Check() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(USAGE_TEXT);
            out.println("Validates the configuration FILE and the files it names; starts nothing, binds no port.");
            out.println("Exit status: 0 valid, 1 invalid (each problem with file:line), 2 usage error.");
            return 0;
        }
        RunOptions options;
        try {
            options = RunOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("jwd: check: " + e.getMessage());
            err.println(USAGE_TEXT);
            return USAGE;
        }
        JettyModules.Decision decision;
        try {
            decision = JettyModules.decide(options, Traces.OFF);
        } catch (ConfigException e) {
            InvalidConfiguration.print(err, options.file().toString(), e.problems());
            return PROBLEMS;
        }
        describe(options, decision, out);
        return 0;
    }

    private static void describe(RunOptions options, JettyModules.Decision decision, PrintStream out) {
        DispatcherConfig config = decision.config();
        long abap = config.servers().stream().filter(s -> s.type() == ServerType.ABAP).count();
        out.println("jwd: " + options.file() + " is valid: " + config.servers().size() + " servers ("
                + (config.servers().size() - abap) + " j2ee, " + abap + " abap), " + config.logonGroups().size()
                + " logon groups");
        List<String> listens = new ArrayList<>();
        listens.add("http://" + decision.listeners().http());
        decision.more().forEach(l -> listens.add("http://" + l));
        decision.listeners().https().forEach(h -> listens.add("https://" + h.listener()
                + (h.line() == null ? "" : " (" + h.line() + ")")));
        PassthroughConfig passthrough = config.section(org.jwd.tls.TlsConfig.class).passthrough();
        if (passthrough != null) {
            listens.add("end-to-end TLS on port " + passthrough.port());
        }
        out.println("jwd: it would listen on " + String.join(", ", listens));
        decision.listeners().notes().forEach(note -> out.println("jwd: " + note));
        describeDiscovery(config, out);
        migrationReport(options, config.sections().find(SapProfile.class).orElse(SapProfile.NONE), out);
        config.section(AdminConfig.class).notUsed().forEach(text -> out.println("jwd: " + text));
    }

    /**
     * Every line of the file, what jwd does with it: applied, mapped to a jwd key, or read and not used with why
     * (a refused line stops the check before this, with what to write instead).
     */
    private static void migrationReport(RunOptions options, SapProfile profile, PrintStream out) {
        out.println("jwd: every line of " + options.file() + " (line: key: what jwd does with it):");
        Map<SapProfile.Kind, Integer> counts = new EnumMap<>(SapProfile.Kind.class);
        for (SapProfile.Line line : profile.lines()) {
            out.println("  " + line.line() + ": " + line);
            counts.merge(line.kind(), 1, Integer::sum);
        }
        out.println("jwd: " + counts.getOrDefault(SapProfile.Kind.APPLIED, 0) + " applied, "
                + counts.getOrDefault(SapProfile.Kind.MAPPED, 0) + " mapped to jwd keys, "
                + counts.getOrDefault(SapProfile.Kind.NOT_USED, 0) + " read, not used; none refused");
    }

    /** What discovery will ask, and how often, without asking. */
    private static void describeDiscovery(DispatcherConfig config, PrintStream out) {
        DiscoveryConfig discovery = config.sections().find(DiscoveryConfig.class).orElse(DiscoveryConfig.NONE);
        for (DiscoveryConfig.Source source : discovery.sources()) {
            Locations at = discovery.locations();
            out.println("jwd: " + (source.sid() == null ? "" : "system " + source.sid() + ": ") + "it would ask "
                    + source.serverList() + " for the servers (" + source.origin() + "), then an ABAP server of that"
                    + " list for " + at.urlMap() + " and " + at.groupInfo()
                    + (at.j2eeUrlMap() == null ? "" : ", a Java server for " + at.j2eeUrlMap())
                    + (at.j2eeGroupInfo() == null ? "" : " and " + at.j2eeGroupInfo())
                    + ", every " + Durations.format(discovery.refresh()) + " (each within "
                    + Durations.format(discovery.timeout()) + "), keeping the last good view in "
                    + (discovery.keptFile() == null ? "no file (jwd.discovery_file is not set)" : discovery.keptFile()));
        }
        discovery.overrides().forEach(o -> out.println("jwd: " + o + " applies to the discovered instance " + o.name()));
    }
}
