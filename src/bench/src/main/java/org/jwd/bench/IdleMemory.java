package org.jwd.bench;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code src/bench/run idle}'s {@code idle.tsv}: a target's resident memory (its process tree, see {@link
 * ProcessTreeMemory}) once it had settled with that many idle keep-alive connections held open by {@link
 * IdleConnections}, what the client counted, and for a JVM its live heap after a full GC ({@code jcmd
 * GC.class_histogram}'s total; -1 for the others).
 *
 * @param round       the round
 * @param target      the target
 * @param connections the connections asked for
 * @param open        held open when the memory was read
 * @param failed      never held (non-2xx, closed, refused, unanswered)
 * @param closedIdle  closed by the target while held, by the end of the measurement
 * @param kilobytes   the resident memory
 * @param liveKilobytes the live heap, -1 when not a JVM
 */
public record IdleMemory(int round, String target, int connections, int open, int failed, int closedIdle,
                         long kilobytes, long liveKilobytes) {
    public static final String HEADER = "round\ttarget\tconnections\topen\tfailed\tclosed_idle\trss_kb\tlive_kb";
    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");

    /** From the client's counts when the memory was read and at its end. */
    static IdleMemory of(int round, String target, long kilobytes, IdleCounts atSample, IdleCounts atEnd,
                         long liveKilobytes) {
        return new IdleMemory(round, target, atSample.connections(), atSample.open(), atEnd.failed(),
                atEnd.closedIdle(), kilobytes, liveKilobytes);
    }

    /** The live heap in a {@code jcmd <pid> GC.class_histogram} output: its total line, in KB. */
    static long liveKilobytes(String histogram) {
        Matcher m = HISTOGRAM_TOTAL.matcher(histogram);
        if (!m.find()) {
            throw new IllegalArgumentException("no 'Total <instances> <bytes>' line in the class histogram");
        }
        return Long.parseLong(m.group(1)) / 1024;
    }

    /**
     * Whether resident memory has settled: the last {@code window + 1} samples, one a second ({@code window}
     * seconds), lie within {@code tolerance} (a share) of the highest of them.
     */
    static boolean settled(List<Long> samples, int window, double tolerance) {
        if (samples.size() < window + 1) {
            return false;
        }
        List<Long> last = samples.subList(samples.size() - window - 1, samples.size());
        long max = last.stream().mapToLong(Long::longValue).max().orElseThrow();
        long min = last.stream().mapToLong(Long::longValue).min().orElseThrow();
        return max - min <= tolerance * max;
    }

    String toTsv() {
        return String.join("\t", Integer.toString(round), target, Integer.toString(connections),
                Integer.toString(open), Integer.toString(failed), Integer.toString(closedIdle),
                Long.toString(kilobytes), Long.toString(liveKilobytes));
    }

    /** {@code "jwd@10000, round 2: 9998 of 10000 held, 2 failed, 0 closed while idle; RSS 812.3 MB, live heap 40.1 MB"} */
    String summary() {
        return String.format(Locale.ROOT, "%s@%d, round %d: %d of %d held, %d failed, %d closed while idle; RSS %.1f MB%s",
                target, connections, round, open, connections, failed, closedIdle, kilobytes / 1024.0,
                liveKilobytes < 0 ? "" : String.format(Locale.ROOT, ", live heap %.1f MB", liveKilobytes / 1024.0));
    }

    /** @throws IllegalArgumentException naming the line when it is not one of idle.tsv */
    static IdleMemory parse(String line) {
        String[] f = line.split("\t", -1);
        try {
            if (f.length != 8) {
                throw new NumberFormatException();
            }
            return new IdleMemory(Integer.parseInt(f[0]), f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                    Integer.parseInt(f[4]), Integer.parseInt(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a line of idle.tsv (" + HEADER.replace('\t', ' ') + "): '" + line
                    + "'");
        }
    }

    /**
     * The Markdown table: per target and count, the connections held (fewest of the rounds), the median resident
     * memory (with its range), and what 1,000 idle connections cost over the fewest connections measured (0: the
     * target warmed up and idle), from the medians; the same for a JVM's live heap.
     */
    static String report(List<IdleMemory> lines, List<String> targets) {
        TreeSet<Integer> counts = new TreeSet<>();
        lines.forEach(line -> counts.add(line.connections()));
        StringBuilder out = new StringBuilder("\n| target | connections | held (fewest) | RSS MB (range) | MB per 1,000"
                + " over " + (counts.isEmpty() ? "-" : counts.first()) + " | live heap MB | live MB per 1,000 |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (String target : targets) {
            for (int n : counts) {
                List<IdleMemory> mine = lines.stream().filter(l -> l.target().equals(target) && l.connections() == n)
                        .toList();
                if (mine.isEmpty()) {
                    continue;
                }
                OptionalDouble rss = median(mine, false);
                OptionalDouble live = median(mine, true);
                List<IdleMemory> base = lines.stream()
                        .filter(l -> l.target().equals(target) && l.connections() == counts.first()).toList();
                out.append("| ").append(target).append(" | ").append(n).append(" | ")
                        .append(mine.stream().mapToInt(IdleMemory::open).min().orElse(0)).append(" | ")
                        .append(format(rss)).append(range(mine)).append(" | ")
                        .append(format(perThousand(rss, median(base, false), n - counts.first()))).append(" | ")
                        .append(format(live)).append(" | ")
                        .append(format(perThousand(live, median(base, true), n - counts.first()))).append(" |\n");
            }
        }
        return out.toString();
    }

    private static OptionalDouble perThousand(OptionalDouble at, OptionalDouble base, int more) {
        return at.isPresent() && base.isPresent() && more > 0
                ? OptionalDouble.of((at.getAsDouble() - base.getAsDouble()) * 1_000 / more) : OptionalDouble.empty();
    }

    /** The median in MB of the resident memory, or of the live heap (none when not a JVM). */
    private static OptionalDouble median(List<IdleMemory> lines, boolean live) {
        return ResultTable.median(lines.stream().mapToLong(l -> live ? l.liveKilobytes() : l.kilobytes())
                .filter(kb -> kb >= 0).mapToDouble(kb -> kb / 1024.0).toArray());
    }

    private static String range(List<IdleMemory> lines) {
        if (lines.size() < 2) {
            return "";
        }
        return String.format(Locale.ROOT, " (%.1f-%.1f)",
                lines.stream().mapToLong(IdleMemory::kilobytes).min().orElseThrow() / 1024.0,
                lines.stream().mapToLong(IdleMemory::kilobytes).max().orElseThrow() / 1024.0);
    }

    private static String format(OptionalDouble megabytes) {
        return megabytes.isPresent() ? String.format(Locale.ROOT, "%.1f", megabytes.getAsDouble()) : "-";
    }
}
