package org.jwd.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One async-profiler profile in its collapsed form ({@code stop,file=F,collapsed,total}): a line per distinct
 * stack, its frames root first and separated by {@code ;}, then its weight — nanoseconds of CPU for
 * {@code event=cpu}, bytes for {@code event=alloc}, nanoseconds waited for {@code event=lock}. Frames end in
 * {@code _[k]} in the kernel, {@code _[i]}/{@code _[j]} etc. for inlined or compiled Java frames and allocated or
 * locked classes.
 *
 * @param stacks each stack's frames with its weight, in the order of the file
 */
public record CollapsedProfile(List<Stack> stacks) {
    /** A stack and what it weighs. */
    public record Stack(List<String> frames, long weight) {
        /** The frame the sample was taken in (an allocation or lock profile: the class). */
        String leaf() {
            return frames.get(frames.size() - 1);
        }
    }

    /** @throws IllegalArgumentException naming the line that is not a stack followed by a whole number */
    public static CollapsedProfile parse(String text) {
        List<Stack> stacks = text.lines().filter(line -> !line.isBlank()).map(line -> {
            int space = line.lastIndexOf(' ');
            try {
                if (space <= 0) {
                    throw new NumberFormatException();
                }
                long weight = Long.parseLong(line.substring(space + 1).trim());
                return new Stack(List.of(line.substring(0, space).split(";")), weight);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a collapsed stack ('frame;frame;... weight'): '"
                        + (line.length() > 80 ? line.substring(0, 80) + "..." : line) + "'");
            }
        }).toList();
        return new CollapsedProfile(stacks);
    }

    public long total() {
        return stacks.stream().mapToLong(Stack::weight).sum();
    }

    /** The share of the total (0 to 1) of the stacks that have a frame matching {@code frame}. */
    public double shareWith(Predicate<String> frame) {
        long total = total();
        return total == 0 ? 0 : (double) stacks.stream().filter(s -> s.frames().stream().anyMatch(frame))
                .mapToLong(Stack::weight).sum() / total;
    }

    /**
     * The share of the total (0 to 1) of the stacks whose deepest library frame matches {@code frame}: what a
     * library's own code costs, with the JDK, native and kernel code it calls, but not the libraries it calls
     * (a servlet's share without the Jetty client below it). A library frame is a Java frame outside
     * {@code java/}, {@code jdk/} and {@code sun/}.
     */
    public double shareOwnedBy(Predicate<String> frame) {
        long total = total();
        return total == 0 ? 0 : (double) stacks.stream().filter(s -> deepestLibraryFrame(s).map(frame::test)
                .orElse(false)).mapToLong(Stack::weight).sum() / total;
    }

    private static Optional<String> deepestLibraryFrame(Stack stack) {
        for (int i = stack.frames().size() - 1; i >= 0; i--) {
            String f = stack.frames().get(i);
            if (f.contains("/") && !f.endsWith("_[k]") && !f.startsWith("java/") && !f.startsWith("jdk/")
                    && !f.startsWith("sun/")) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The share of the total (0 to 1) of the stacks whose leaf matches {@code frame}. */
    public double shareEndingIn(Predicate<String> frame) {
        long total = total();
        return total == 0 ? 0 : (double) stacks.stream().filter(s -> frame.test(s.leaf()))
                .mapToLong(Stack::weight).sum() / total;
    }

    /** The leaves that weigh most, heaviest first, with their weight summed over every stack they end. */
    public Map<String, Long> heaviestLeaves(int count) {
        Map<String, Long> byLeaf = new LinkedHashMap<>();
        stacks.forEach(s -> byLeaf.merge(s.leaf(), s.weight(), Long::sum));
        Map<String, Long> heaviest = new LinkedHashMap<>();
        byLeaf.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(count).forEach(e -> heaviest.put(e.getKey(), e.getValue()));
        return heaviest;
    }
}
