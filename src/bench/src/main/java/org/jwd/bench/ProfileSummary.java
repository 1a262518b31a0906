package org.jwd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What {@code src/bench/run}'s profiles say, per JVM target: for {@code TARGET-cpu.collapsed},
 * {@code TARGET-alloc.collapsed} and {@code TARGET-lock.collapsed} (async-profiler, weights in nanoseconds and
 * bytes), each beside the wrk output of the load it was taken under ({@code TARGET-EVENT.wrk.txt}), the sampled
 * CPU, allocation and lock waiting per request; the CPU's share in the kernel, in jwd's own code and Ehcache's
 * (see {@link CollapsedProfile#shareOwnedBy}), in Jetty's HTTP parser and in the JIT compiler; and the heaviest
 * frames of each profile.
 */
public final class ProfileSummary {
    static final List<String> EVENTS = List.of("cpu", "alloc", "lock");
    private static final int HEAVIEST = 8;

    private static final Predicate<String> KERNEL = frame -> frame.endsWith("_[k]");
    private static final Predicate<String> JWD = frame -> frame.startsWith("org/jwd/") || frame.startsWith("org.jwd.");
    private static final Predicate<String> EHCACHE = frame -> frame.startsWith("org/ehcache/");
    private static final Predicate<String> HTTP_PARSER = frame -> frame.startsWith("org/eclipse/jetty/http/HttpParser");
    private static final Predicate<String> JIT = frame -> frame.startsWith("CompileBroker::");

    private ProfileSummary() {
    }

    /** The targets profiled in {@code dir}: those with a CPU profile, in name order. */
    static List<String> targets(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(name -> name.endsWith("-cpu.collapsed"))
                    .map(name -> name.substring(0, name.length() - "-cpu.collapsed".length())).sorted().toList();
        }
    }

    /** The summary in Markdown. */
    static String render(Path dir) throws IOException {
        List<String> targets = targets(dir);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no TARGET-cpu.collapsed in " + dir);
        }
        StringBuilder out = new StringBuilder("\n### Profiles (async-profiler, sticky load)\n\n"
                + "| target | sampled CPU µs/req | kernel | jwd's own code | Ehcache's own code | Jetty HttpParser"
                + " | JIT compiler | alloc KB/req | lock wait µs/req |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String target : targets) {
            CollapsedProfile cpu = profile(dir, target, "cpu");
            out.append("| ").append(target)
                    .append(" | ").append(perRequest(dir, target, "cpu", cpu, 1_000.0, "%.1f"))
                    .append(" | ").append(percent(cpu.shareEndingIn(KERNEL)))
                    .append(" | ").append(percent(cpu.shareOwnedBy(JWD)))
                    .append(" | ").append(percent(cpu.shareOwnedBy(EHCACHE)))
                    .append(" | ").append(percent(cpu.shareWith(HTTP_PARSER)))
                    .append(" | ").append(percent(cpu.shareWith(JIT)))
                    .append(" | ").append(perRequest(dir, target, "alloc", profile(dir, target, "alloc"), 1_024.0, "%.1f"))
                    .append(" | ").append(perRequest(dir, target, "lock", profile(dir, target, "lock"), 1_000.0, "%.2f"))
                    .append(" |\n");
        }
        out.append("\nShares of the sampled CPU: kernel = samples ending in the kernel; own code = samples whose deepest"
                + " library frame (not java/, jdk/, sun/) is that library's, so with the JDK code it calls but not Jetty's;"
                + " HttpParser and JIT compiler = samples with such a frame anywhere on the stack. Lock wait: time threads"
                + " waited to enter a lock, idle pool threads included.\n");
        for (String target : targets) {
            for (String event : EVENTS) {
                CollapsedProfile profile = profile(dir, target, event);
                long total = profile.total();
                out.append("\n").append(target).append(", ").append(event).append(", heaviest frames:\n");
                for (Map.Entry<String, Long> leaf : profile.heaviestLeaves(HEAVIEST).entrySet()) {
                    out.append("- ").append(percent(total == 0 ? 0 : (double) leaf.getValue() / total)).append(' ')
                            .append(leaf.getKey()).append('\n');
                }
            }
        }
        return out.toString();
    }

    private static CollapsedProfile profile(Path dir, String target, String event) throws IOException {
        Path file = dir.resolve(target + "-" + event + ".collapsed");
        if (!Files.exists(file)) {
            return new CollapsedProfile(List.of());
        }
        try {
            return CollapsedProfile.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }

    /** The profile's total per request of the load it was taken under, divided by {@code unit}; "-" unknown. */
    private static String perRequest(Path dir, String target, String event, CollapsedProfile profile, double unit,
                                     String pattern) throws IOException {
        OptionalLong requests = requests(dir.resolve(target + "-" + event + ".wrk.txt"));
        if (requests.isEmpty() || requests.getAsLong() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, pattern, profile.total() / unit / requests.getAsLong());
    }

    private static OptionalLong requests(Path wrkOutput) throws IOException {
        if (!Files.exists(wrkOutput)) {
            return OptionalLong.empty();
        }
        return WrkResult.parse(Files.readString(wrkOutput, StandardCharsets.UTF_8))
                .map(wrk -> OptionalLong.of(wrk.requests())).orElse(OptionalLong.empty());
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }
}
