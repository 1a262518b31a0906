package org.jwd.launch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

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
 * Exit status 0 when the file would start, 1 with its problems, 2 for a usage error.
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
        List<String> notUsed = config.sections().find(SapProfile.class).map(SapProfile::notUsed).orElse(List.of());
        if (!notUsed.isEmpty()) {
            out.println("jwd: SAP profile lines read, not used: " + String.join(", ", notUsed));
        }
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
