package org.jwd.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jwd.demo.DemoBackend.Options;
import org.jwd.demo.DemoBackend.ServerType;

/**
 * One demo backend as a process of its own ({@code bin/jwd demo}'s helpers, the soak test's killable servers): its
 * command line ({@link #USAGE}) and its life. It prints exactly one line
 * {@code demo backend <id> ready on http://<host>:<port>/} to standard output once listening, exits 2 on a bad option
 * and 1 if it cannot start, and stops cleanly on SIGTERM.
 */
final class BackendProcess {
    static final String USAGE = "usage: DemoBackend --id ID [--port N] [--host ADDR] [--type j2ee|abap]"
            + " [--delay-ms N] [--iview-delay-ms N] [--instance NAME] [--node NAME] [--name NAME]"
            + " [--iviews PATH,PATH...]";
    private static final Set<String> KNOWN_OPTIONS = Set.of("--id", "--port", "--host", "--type", "--delay-ms",
            "--iview-delay-ms", "--instance", "--node", "--name", "--iviews");

    private BackendProcess() {
    }

    static void run(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        Options options;
        try {
            options = options(args);
        } catch (IllegalArgumentException e) {
            System.err.println("demo backend: " + e.getMessage());
            System.err.println(USAGE);
            System.err.flush();
            System.exit(2);
            return;
        }
        DemoBackend backend;
        try {
            backend = DemoBackend.start(options);
        } catch (RuntimeException e) {
            System.err.println("demo backend " + options.id() + ": " + e.getMessage()
                    + (e.getCause() != null ? ": " + e.getCause() : ""));
            System.err.flush();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(backend::stop, "demo-" + options.id() + "-shutdown"));
        System.out.println("demo backend " + options.id() + " ready on " + backend.url() + "/");
        System.out.flush();
        try {
            backend.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            backend.stop();
        }
    }

    /**
     * Parses command line options ({@code --opt value} or {@code --opt=value}).
     *
     * @throws IllegalArgumentException naming the offending option
     */
    static Options options(String... args) {
        Options options = null;
        List<String[]> pairs = pairs(args);
        for (String[] pair : pairs) {
            if (pair[0].equals("--id")) {
                options = Options.j2ee(pair[1]);
            }
        }
        if (options == null) {
            throw new IllegalArgumentException("option --id is required");
        }
        for (String[] pair : pairs) {
            options = with(options, pair[0], pair[1]);
        }
        return options;
    }

    /** The options and their values, in order. */
    private static List<String[]> pairs(String... args) {
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            String value = null;
            int eq = option.indexOf('=');
            if (option.startsWith("--") && eq > 0) {
                value = option.substring(eq + 1);
                option = option.substring(0, eq);
            }
            if (!KNOWN_OPTIONS.contains(option)) {
                throw new IllegalArgumentException("unknown option '" + option + "'");
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + option + " needs a value");
                }
                value = args[++i];
            }
            pairs.add(new String[] {option, value});
        }
        return pairs;
    }

    private static Options with(Options o, String option, String value) {
        return switch (option) {
            case "--id" -> o;
            case "--port" -> o.withPort((int) number(option, value, 65535));
            case "--host" -> o.withHost(value);
            case "--type" -> o.withType(ServerType.parse(value));
            case "--delay-ms" -> o.withDelayMillis(number(option, value, Long.MAX_VALUE));
            case "--iview-delay-ms" -> o.withIviewDelayMillis(number(option, value, Long.MAX_VALUE));
            case "--instance" -> o.withInstance(value);
            case "--node" -> o.withNode(value);
            case "--name" -> o.withName(value);
            case "--iviews" -> o.withIviews(value.split(","));
            default -> throw new IllegalArgumentException("unknown option '" + option + "'");
        };
    }

    private static long number(String option, String value, long max) {
        try {
            long n = Long.parseLong(value.trim());
            if (n < 0 || n > max) {
                throw new IllegalArgumentException("option " + option + " must be 0.." + max + ", not " + value);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + option + " needs a number, not '" + value + "'");
        }
    }
}
