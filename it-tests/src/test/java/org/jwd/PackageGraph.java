package org.jwd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which of jwd's packages use which, read from the sources: every {@code org.jwd.<package>.<Type>} a file names in
 * its imports or its code (comments left out). Packages are named below {@code org.jwd}: {@code routing},
 * {@code admin}; the root package itself is {@code ""}. ArchUnit would read the class files instead, but a dozen
 * lines of scanning need no dependency and see the same arrows: jwd names its own types by import or in full.
 */
final class PackageGraph {
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+org\\.jwd(?:\\.([a-z0-9.]+))?;",
            Pattern.MULTILINE);
    /** {@code org.jwd.} then lower-case package parts, then the type: the type's package is the part before it. */
    private static final Pattern REFERENCE = Pattern.compile("\\borg\\.jwd\\.((?:[a-z0-9]+\\.)*)[A-Z]");
    private static final Pattern BLOCK_COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    private static final Pattern LINE_COMMENT = Pattern.compile("^\\s*//.*$", Pattern.MULTILINE);

    /** package -> the other packages it uses; every package declared in the sources is a key */
    private final Map<String, Set<String>> uses;

    PackageGraph(Map<String, Set<String>> uses) {
        this.uses = uses;
    }

    /** The graph of the sources under {@code roots} (source roots such as {@code src/core/src/main/java}). */
    static PackageGraph scan(Path... roots) {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path root : roots) {
            scan(root, uses);
        }
        return new PackageGraph(uses);
    }

    private static void scan(Path root, Map<String, Set<String>> uses) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file, StandardCharsets.UTF_8);
                String code = LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(source).replaceAll(" ")).replaceAll("");
                Matcher declared = PACKAGE.matcher(code);
                if (!declared.find()) {
                    continue; // not one of jwd's packages
                }
                String from = declared.group(1) == null ? "" : declared.group(1);
                Set<String> targets = uses.computeIfAbsent(from, p -> new TreeSet<>());
                Matcher ref = REFERENCE.matcher(code.substring(declared.end()));
                while (ref.find()) {
                    String to = ref.group(1).isEmpty() ? "" : ref.group(1).substring(0, ref.group(1).length() - 1);
                    if (!to.equals(from)) {
                        targets.add(to);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The packages the sources declare. */
    Set<String> declared() {
        return new TreeSet<>(uses.keySet());
    }

    Set<String> packages() {
        Set<String> all = new TreeSet<>(uses.keySet());
        uses.values().forEach(all::addAll);
        return all;
    }

    /** Every arrow as {@code from -> to}. */
    Set<String> arrows() {
        Set<String> arrows = new TreeSet<>();
        uses.forEach((from, targets) -> targets.forEach(to -> arrows.add(from + " -> " + to)));
        return arrows;
    }

    /**
     * The cycles among the arrows not in {@code ignored}: each strongly connected set of two or more packages, as
     * its sorted members (Tarjan's algorithm).
     */
    List<Set<String>> cycles(Set<String> ignored) {
        return new Tarjan(ignored).run();
    }

    /**
     * Arrows that run back up {@code layers} (top first: a package may use its own layer's and lower ones), and
     * packages in no layer, each as one line; {@code ignored} arrows are left out.
     */
    List<String> layerViolations(List<List<String>> layers, Set<String> ignored) {
        Map<String, Integer> level = new TreeMap<>();
        for (int i = 0; i < layers.size(); i++) {
            for (String p : layers.get(i)) {
                level.put(p, i);
            }
        }
        List<String> problems = new ArrayList<>();
        for (String p : packages()) {
            if (!level.containsKey(p)) {
                problems.add("package '" + p + "' is in no layer: add it to the layer order");
            }
        }
        for (String arrow : arrows()) {
            String[] ends = arrow.split(" -> ");
            Integer from = level.get(ends[0]);
            Integer to = level.get(ends[1]);
            if (from != null && to != null && to < from && !ignored.contains(arrow)) {
                problems.add(arrow + " runs back up the layers");
            }
        }
        return problems;
    }

    private final class Tarjan {
        private final Set<String> ignored;
        private final Map<String, Integer> index = new TreeMap<>();
        private final Map<String, Integer> low = new TreeMap<>();
        private final List<String> stack = new ArrayList<>();
        private final List<Set<String>> components = new ArrayList<>();

        Tarjan(Set<String> ignored) {
            this.ignored = ignored;
        }

        List<Set<String>> run() {
            for (String p : packages()) {
                if (!index.containsKey(p)) {
                    visit(p);
                }
            }
            return components;
        }

        private void visit(String p) {
            index.put(p, index.size());
            low.put(p, index.get(p));
            stack.add(p);
            for (String q : uses.getOrDefault(p, Set.of())) {
                if (ignored.contains(p + " -> " + q)) {
                    continue;
                }
                if (!index.containsKey(q)) {
                    visit(q);
                    low.put(p, Math.min(low.get(p), low.get(q)));
                } else if (stack.contains(q)) {
                    low.put(p, Math.min(low.get(p), index.get(q)));
                }
            }
            if (low.get(p).equals(index.get(p))) {
                Set<String> component = new TreeSet<>();
                String q;
                do {
                    q = stack.remove(stack.size() - 1);
                    component.add(q);
                } while (!q.equals(p));
                if (component.size() > 1) {
                    components.add(component);
                }
            }
        }
    }
}
