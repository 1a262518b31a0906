package org.jwd.bench;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.TreeSet;

/**
 * One line of {@code src/bench/run connections}' {@code rss.tsv}: a proxy's resident memory (its process tree, see
 * {@link ProcessTreeMemory}) taken two thirds into a measured run with that many client connections open.
 *
 * @param round       the round
 * @param target      the proxy
 * @param connections wrk's keep-alive connections
 * @param kilobytes   the resident memory
 */
public record ConnectionMemory(int round, String target, int connections, long kilobytes) {
    public static final String HEADER = "round\ttarget\tconnections\trss_kb";

    String toTsv() {
        return round + "\t" + target + "\t" + connections + "\t" + kilobytes;
    }

    /** @throws IllegalArgumentException naming the line when it is not one of rss.tsv */
    static ConnectionMemory parse(String line) {
        String[] f = line.split("\t", -1);
        try {
            if (f.length != 4) {
                throw new NumberFormatException();
            }
            return new ConnectionMemory(Integer.parseInt(f[0]), f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a line of rss.tsv (" + HEADER.replace('\t', ' ') + "): '" + line
                    + "'");
        }
    }

    /**
     * The Markdown table: per target, the median resident memory at each connection count, and what 1,000 more
     * connections cost, from the fewest connections measured to the most (the medians' difference, scaled).
     */
    static String report(List<ConnectionMemory> lines, List<String> targets) {
        TreeSet<Integer> counts = new TreeSet<>();
        lines.forEach(line -> counts.add(line.connections()));
        StringBuilder out = new StringBuilder("\n| target |");
        counts.forEach(n -> out.append(" RSS MB at ").append(n).append(" |"));
        out.append(" MB per 1,000 connections |\n|---|");
        counts.forEach(n -> out.append("---:|"));
        out.append("---:|\n");
        for (String target : targets) {
            out.append("| ").append(target).append(" |");
            for (int n : counts) {
                out.append(' ').append(format(median(lines, target, n))).append(" |");
            }
            OptionalDouble fewest = counts.isEmpty() ? OptionalDouble.empty() : median(lines, target, counts.first());
            OptionalDouble most = counts.isEmpty() ? OptionalDouble.empty() : median(lines, target, counts.last());
            OptionalDouble perThousand = fewest.isPresent() && most.isPresent() && counts.last() > counts.first()
                    ? OptionalDouble.of((most.getAsDouble() - fewest.getAsDouble()) * 1_000
                            / (counts.last() - counts.first()))
                    : OptionalDouble.empty();
            out.append(' ').append(format(perThousand)).append(" |\n");
        }
        return out.toString();
    }

    /** The median in MB. */
    private static OptionalDouble median(List<ConnectionMemory> lines, String target, int connections) {
        return ResultTable.median(lines.stream().filter(l -> l.target().equals(target) && l.connections() == connections)
                .mapToDouble(l -> l.kilobytes() / 1024.0).toArray());
    }

    private static String format(OptionalDouble megabytes) {
        return megabytes.isPresent() ? String.format(Locale.ROOT, "%.1f", megabytes.getAsDouble()) : "-";
    }
}
