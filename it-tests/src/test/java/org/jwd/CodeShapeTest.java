package org.jwd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Pins the shape of the production code of every module: no class over {@value #MAX_CLASS_LINES} code lines, no method
 * over {@value #MAX_METHOD_LINES}. A code line is a line that is neither blank nor only comment; a method's lines
 * are those of its body between the line that opens it and the line that closes it. A class is its file: a
 * nested class counts towards the class that holds it, as a reader meets it there.
 *
 * <p>The scanner is plain Java on the source text (comments, strings and character literals are blanked
 * first, so their braces and slashes do not count), with no parser to keep in step with the compiler.
 */
class CodeShapeTest {
    static final int MAX_CLASS_LINES = 250;
    static final int MAX_METHOD_LINES = 40;
    private static final List<Path> SOURCES = Stream.of("core", "server", "webapp", "demo")
            .map(Modules::sources).toList();

    /** Methods that are long for a reason that stays. */
    private static final Set<String> LONG_METHODS_ALLOWED = Set.of(
            // the metrics table: one registration per metric, read as a table; splitting it would scatter it
            "metrics/DispatcherMetrics.DispatcherMetrics");

    @Test
    void noProductionClassOrMethodIsLongerThanTheLimits() {
        List<String> tooLong = new ArrayList<>();
        for (SourceShape shape : productionSources()) {
            tooLong.addAll(shape.problems());
        }
        assertThat(tooLong).as("classes over %d code lines, methods over %d", MAX_CLASS_LINES, MAX_METHOD_LINES)
                .isEmpty();
    }

    @Test
    void countsCodeLinesAndMethodBodiesButNotCommentsStringsOrBlocksInsideAMethod() {
        String source = """
                package x;
                /** A { brace in a comment. */
                final class Sample {
                    private static final String S = "}{ // not a comment";

                    Sample(int a) {
                        if (a > 0) {
                            run(() -> {
                                a++;
                            });
                        }
                    }

                    @Override
                    public <T> java.util.List<T> list(
                            int n) throws java.io.IOException {
                        // only a comment
                        char c = '{';
                        return new java.util.ArrayList<>() {
                            @Override public int size() {
                                return 0;
                            }
                        };
                    }
                }
                """;
        SourceShape shape = new SourceShape("x/Sample", source);

        assertThat(shape.codeLines()).isEqualTo(21);
        assertThat(shape.methods()).containsExactly(
                new MethodShape("Sample", 5), new MethodShape("size", 1), new MethodShape("list", 6));
    }

    @Test
    void namesTheClassAndTheMethodThatAreTooLong() {
        StringBuilder source = new StringBuilder("class Big {\n    void work() {\n");
        for (int i = 0; i <= MAX_CLASS_LINES; i++) {
            source.append("        step(").append(i).append(");\n");
        }
        source.append("    }\n}\n");

        assertThat(new SourceShape("big/Big", source.toString()).problems()).containsExactly(
                "big/Big: " + (MAX_CLASS_LINES + 5) + " code lines",
                "big/Big.work: " + (MAX_CLASS_LINES + 1) + " code lines");
    }

    private static List<SourceShape> productionSources() {
        List<SourceShape> shapes = new ArrayList<>();
        for (Path sources : SOURCES) {
            try (Stream<Path> files = Files.walk(sources)) {
                List<Path> javaFiles = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
                assertThat(javaFiles).as("production sources under %s", sources.toAbsolutePath()).isNotEmpty();
                for (Path file : javaFiles) {
                    String relative = sources.resolve("org/jwd").relativize(file).toString().replace('\\', '/');
                    shapes.add(new SourceShape(relative.substring(0, relative.length() - ".java".length()),
                            Files.readString(file)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shapes;
    }

    record MethodShape(String name, int codeLines) {
    }

    /** One source file, measured: its code lines and the code lines of each method body. */
    record SourceShape(String name, int codeLines, List<MethodShape> methods) {
        /** The text before a '{' that opens a method or constructor body: a name, parameters, maybe throws. */
        private static final Pattern METHOD_HEADER = Pattern.compile(
                "^[\\w\\s<>\\[\\],.?&]*?\\b(\\w+)\\s*\\([^;{}]*\\)\\s*(throws\\s+[\\w\\s.,]+)?$", Pattern.DOTALL);
        private static final Pattern ANNOTATION = Pattern.compile("@\\w+(\\.\\w+)*(\\s*\\([^)]*\\))?");
        private static final Set<String> NOT_METHODS = Set.of("if", "for", "while", "switch", "catch", "try",
                "synchronized", "record", "class", "interface", "enum", "new", "return", "throw", "else", "do");

        SourceShape(String name, String source) {
            this(name, blankCommentsAndLiterals(source));
        }

        private SourceShape(String name, String[] lines) {
            this(name, countCode(lines, 0, lines.length), measureMethods(lines));
        }

        List<String> problems() {
            List<String> problems = new ArrayList<>();
            if (codeLines > MAX_CLASS_LINES) {
                problems.add(name + ": " + codeLines + " code lines");
            }
            for (MethodShape m : methods) {
                String qualified = name + "." + m.name();
                if (m.codeLines() > MAX_METHOD_LINES && !LONG_METHODS_ALLOWED.contains(qualified)) {
                    problems.add(qualified + ": " + m.codeLines() + " code lines");
                }
            }
            return problems;
        }

        private static int countCode(String[] lines, int from, int to) {
            int count = 0;
            for (int i = from; i < to; i++) {
                if (!lines[i].isBlank()) {
                    count++;
                }
            }
            return count;
        }

        /** Methods in the order their bodies close, so a method of an anonymous class comes before its host. */
        private static List<MethodShape> measureMethods(String[] lines) {
            List<MethodShape> methods = new ArrayList<>();
            // per open brace: the method it opens and its line, or null for any other block
            List<Object[]> open = new ArrayList<>();
            StringBuilder header = new StringBuilder();
            for (int line = 0; line < lines.length; line++) {
                for (char c : lines[line].toCharArray()) {
                    if (c == '{') {
                        String method = methodName(header.toString());
                        open.add(method == null ? null : new Object[] {method, line});
                        header.setLength(0);
                    } else if (c == '}') {
                        Object[] block = open.remove(open.size() - 1);
                        if (block != null) {
                            int start = (int) block[1];
                            methods.add(new MethodShape((String) block[0], countCode(lines, start + 1, line)));
                        }
                        header.setLength(0);
                    } else if (c == ';') {
                        header.setLength(0);
                    } else {
                        header.append(c);
                    }
                }
                header.append('\n');
            }
            return methods;
        }

        private static String methodName(String header) {
            String text = ANNOTATION.matcher(header).replaceAll(" ").strip();
            if (text.contains("->") || text.contains("=")) {
                return null;
            }
            Matcher m = METHOD_HEADER.matcher(text);
            if (!m.matches() || NOT_METHODS.contains(m.group(1))) {
                return null;
            }
            for (String word : text.substring(0, m.start(1)).split("\\W+")) {
                if (NOT_METHODS.contains(word)) {
                    return null;
                }
            }
            return m.group(1);
        }

        /** The source's lines with comments, string, text block and character literals replaced by spaces. */
        private static String[] blankCommentsAndLiterals(String source) {
            StringBuilder out = new StringBuilder(source.length());
            int i = 0;
            int n = source.length();
            while (i < n) {
                int end;
                if (source.startsWith("//", i)) {
                    end = indexOrEnd(source, "\n", i);
                } else if (source.startsWith("/*", i)) {
                    end = indexOrEnd(source, "*/", i + 2) + 2;
                } else if (source.startsWith("\"\"\"", i)) {
                    end = indexOrEnd(source, "\"\"\"", i + 3) + 3;
                } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                    end = endOfQuoted(source, i);
                } else {
                    out.append(source.charAt(i++));
                    continue;
                }
                for (int k = i; k < Math.min(end, n); k++) {
                    out.append(source.charAt(k) == '\n' ? '\n' : ' ');
                }
                // a literal keeps one mark, so that a line holding only a string still counts as code
                if (!source.startsWith("/", i)) {
                    out.setCharAt(out.length() - Math.min(end, n) + i, 'L');
                }
                i = end;
            }
            return out.toString().split("\n", -1);
        }

        private static int indexOrEnd(String s, String what, int from) {
            int at = s.indexOf(what, from);
            return at < 0 ? s.length() : at;
        }

        private static int endOfQuoted(String s, int start) {
            char quote = s.charAt(start);
            int i = start + 1;
            while (i < s.length() && s.charAt(i) != quote) {
                i += s.charAt(i) == '\\' ? 2 : 1;
            }
            return i + 1;
        }
    }
}
