package org.jwd.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jwd.statefile.NewerFormatException;
import org.jwd.statefile.StateFormat;

/**
 * The last good answers of every system's lists, kept in a file ({@code jwd.discovery_file}), so that jwd restarted
 * while the message server is away serves from them at once. The answers are kept as SAP wrote them and read again
 * by the same parsers: one reader per format. The file starts with its format ({@link #FORMAT}, the rule of every
 * file jwd keeps its state in: {@link StateFormat}); a file of a newer format is refused with a message naming it
 * and both formats ({@link NewerFormatException}) and left as it is. Written whole beside its final name and moved
 * over it.
 * <pre>
 * jwd discovery view 1
 * system &lt;SID, or - for the one implicit system&gt;
 * at &lt;epoch ms of the server list's answer&gt;
 * source &lt;the server list's URL&gt;
 * icf &lt;the ICF server's URL, or -&gt;
 * list server_list &lt;n&gt;    (then n lines; likewise url_map, groups, j2ee_url_map, j2ee_groups when known)
 * end
 * </pre>
 */
public final class KeptViews {
    static final StateFormat FORMAT = new StateFormat("discovery view", 1);
    private static final String HEAD = "jwd discovery view ";
    private static final String[] LISTS = {"server_list", "url_map", "groups", "j2ee_url_map", "j2ee_groups"};

    private final Path file;

    /** @param file the file, or {@code null}: nothing is kept */
    public KeptViews(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /**
     * The kept answers by system; empty without a file.
     *
     * @throws NewerFormatException when a later jwd wrote it
     * @throws IOException          naming the file when it cannot be read, is not a kept view or is damaged
     */
    public Map<String, Answers> load() throws IOException {
        if (file == null) {
            return Map.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        return read(lines);
    }

    Map<String, Answers> read(List<String> lines) throws IOException {
        String head = lines.isEmpty() ? "" : lines.get(0);
        if (!head.startsWith(HEAD)) {
            // no kept view was ever written without its format's line
            throw new IOException(file + " is not a discovery view kept by jwd (its first line is not '"
                    + FORMAT.line() + "'): left as it is, not read");
        }
        FORMAT.of(file, head);
        Map<String, Answers> answers = new LinkedHashMap<>();
        try {
            int i = 1;
            while (i < lines.size()) {
                i = system(lines, i, answers);
            }
        } catch (RuntimeException e) {
            throw new IOException(file + " is damaged (" + e.getMessage() + "): not read", e);
        }
        return answers;
    }

    /** Reads one system's block from line {@code i}; returns the line after it. */
    private static int system(List<String> lines, int i, Map<String, Answers> into) {
        String system = field(lines.get(i++), "system");
        long at = Long.parseLong(field(lines.get(i++), "at"));
        String source = field(lines.get(i++), "source");
        String icf = field(lines.get(i++), "icf");
        Map<String, String> lists = new LinkedHashMap<>();
        while (!lines.get(i).equals("end")) {
            String[] list = field(lines.get(i++), "list").split(" ");
            int n = Integer.parseInt(list[1]);
            lists.put(list[0], String.join("\n", lines.subList(i, i + n)) + "\n");
            i += n;
        }
        into.put(system, new Answers(lists.get(LISTS[0]), lists.get(LISTS[1]), lists.get(LISTS[2]),
                lists.get(LISTS[3]), lists.get(LISTS[4]), source, icf.equals("-") ? null : icf, at));
        return i + 1;
    }

    private static String field(String line, String name) {
        if (!line.startsWith(name + " ")) {
            throw new IllegalArgumentException("expected '" + name + " ...', found '" + line + "'");
        }
        return line.substring(name.length() + 1);
    }

    /** Writes every system's answers, whole; nothing without a file. */
    public void store(Map<String, Answers> answers) throws IOException {
        if (file == null) {
            return;
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".new");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(temporary, text(answers), StandardCharsets.UTF_8);
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static String text(Map<String, Answers> answers) {
        StringBuilder sb = new StringBuilder(FORMAT.line() + "\n");
        answers.forEach((system, a) -> {
            sb.append("system ").append(system).append("\nat ").append(a.atMillis()).append("\nsource ")
                    .append(a.source()).append("\nicf ").append(a.icfSource() == null ? "-" : a.icfSource())
                    .append('\n');
            String[] bodies = {a.serverList(), a.urlMap(), a.groups(), a.j2eeUrlMap(), a.j2eeGroups()};
            for (int k = 0; k < LISTS.length; k++) {
                if (bodies[k] != null) {
                    List<String> lines = new ArrayList<>(List.of(bodies[k].split("\n", -1)));
                    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
                        lines.remove(lines.size() - 1);
                    }
                    sb.append("list ").append(LISTS[k]).append(' ').append(lines.size()).append('\n');
                    lines.forEach(l -> sb.append(l).append('\n'));
                }
            }
            sb.append("end\n");
        });
        return sb.toString();
    }

    @Override
    public String toString() {
        return file == null ? "kept nowhere" : "kept in " + file;
    }
}
