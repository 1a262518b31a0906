package org.jwd.modification;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.ConfigException;

/**
 * Reads an action file as SAP documents it: one rule or condition a line, in the order they run; blank lines and
 * lines whose first character is {@code #} ignored; {@code if} lines guarding the rule after them, linked by
 * {@code [AND]} and {@code [OR]}; from SAP's release 7.40 also a block ({@code begin} ... {@code end}, each on a line
 * of its own) and {@code else}. Every problem is reported with {@code file:line}, all of a file at once.
 */
final class ActionFileParser {
    /** A line that is neither blank nor a comment, and its words. */
    private record Line(Where where, List<Tokens.Token> words) {
        boolean starts(String keyword) {
            return words.get(0).is(keyword);
        }
    }

    private final String file;
    private final List<Line> lines = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private int next;

    private ActionFileParser(String file) {
        this.file = file;
    }

    /** Reads the file; {@code name} is how messages name it (its value in the configuration). */
    static ActionFile load(Path path, String name) throws ConfigException {
        try {
            return parse(Files.readString(path, StandardCharsets.UTF_8), name);
        } catch (NoSuchFileException e) {
            throw new ConfigException("action file " + path.toAbsolutePath() + " does not exist");
        } catch (MalformedInputException e) {
            throw new ConfigException("action file " + path.toAbsolutePath() + " cannot be read: expected UTF-8 text");
        } catch (IOException e) {
            throw new ConfigException("action file " + path.toAbsolutePath() + " cannot be read: " + e);
        }
    }

    /** @throws ConfigException with every problem, each {@code file:line: 'line': what is wrong} */
    static ActionFile parse(String text, String name) throws ConfigException {
        ActionFileParser parser = new ActionFileParser(name);
        parser.split(text);
        Step[] steps = parser.block(null);
        if (!parser.problems.isEmpty()) {
            throw new ConfigException(parser.problems);
        }
        return new ActionFile(name, steps, parser.lines.stream().map(Line::where).toList());
    }

    private void split(String text) {
        String[] raw = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < raw.length; i++) {
            String line = raw[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Where where = new Where(file, i + 1, line);
            try {
                lines.add(new Line(where, Tokens.of(line)));
            } catch (IllegalArgumentException e) {
                problem(where, e.getMessage());
            }
        }
    }

    private void problem(Where where, String what) {
        problems.add(where.place() + ": '" + where.text() + "': " + what);
    }

    /** The steps up to the {@code end} of {@code opener}'s block, or to the file's end without one. */
    private Step[] block(Line opener) {
        List<Step> steps = new ArrayList<>();
        while (next < lines.size()) {
            Line line = lines.get(next);
            if (opener != null && line.starts("end")) {
                next++;
                return steps.toArray(new Step[0]);
            }
            if (line.starts("begin") || line.starts("end") || line.starts("else")) {
                next++;
                problem(line.where(), "'" + line.words().get(0).text() + "' stands where a rule or an if line is"
                        + " expected: begin follows an if line (or else), end closes a begin, else follows the rule or"
                        + " block of an if");
                continue;
            }
            addStep(steps, statement());
        }
        if (opener != null) {
            problem(opener.where(), "this begin has no end");
        }
        return steps.toArray(new Step[0]);
    }

    private static void addStep(List<Step> steps, Step step) {
        if (step != null) {
            steps.add(step);
        }
    }

    /** A rule, or an if chain with what it guards; {@code null} when it was refused (the problem is noted). */
    private Step statement() {
        Line line = lines.get(next++);
        return line.starts("if") ? branch(line) : rule(line.where(), line.words());
    }

    private Step rule(Where where, List<Tokens.Token> words) {
        try {
            return new Step.Rule(ActionParser.parse(where, words));
        } catch (IllegalArgumentException e) {
            problem(where, e.getMessage());
            return null;
        }
    }

    private Step branch(Line first) {
        List<Condition> chain = new ArrayList<>();
        Line line = first;
        ConditionParser.Read read;
        while (true) {
            try {
                read = ConditionParser.parse(line.where(), line.words());
            } catch (IllegalArgumentException e) {
                // the whole file is refused; what the line guarded is still read, for its own problems
                problem(line.where(), e.getMessage());
                return null;
            }
            chain.add(read.condition());
            if (read.condition().join() == null) {
                break;
            }
            if (!read.rest().isEmpty()) {
                problem(line.where(), "[AND] and [OR] link to the next if line: the rule stands after the last"
                        + " condition");
                return null;
            }
            if (next >= lines.size() || !lines.get(next).starts("if")) {
                problem(line.where(), "[" + read.condition().join() + "] is followed by no if line");
                return null;
            }
            line = lines.get(next++);
        }
        Step[] then = read.rest().isEmpty() ? body(line) : inline(line, read.rest());
        Step[] otherwise = new Step[0];
        if (next < lines.size() && lines.get(next).starts("else")) {
            Line elseLine = lines.get(next++);
            otherwise = elseLine.words().size() > 1 ? inline(elseLine, elseLine.words().subList(1,
                    elseLine.words().size())) : body(elseLine);
        }
        return new Step.Branch(chain.toArray(new Condition[0]), then, otherwise);
    }

    /** The rule (or {@code begin}) written on the same line as its {@code if} or {@code else}. */
    private Step[] inline(Line line, List<Tokens.Token> words) {
        if (words.size() == 1 && words.get(0).is("begin")) {
            return block(line);
        }
        Step step = rule(line.where(), words);
        return step == null ? new Step[0] : new Step[] {step};
    }

    /** What a condition guards: the next line's rule, or the block that line begins. */
    private Step[] body(Line guard) {
        if (next >= lines.size() || lines.get(next).starts("end") || lines.get(next).starts("else")) {
            problem(guard.where(), "no rule follows this condition");
            return new Step[0];
        }
        Line line = lines.get(next);
        if (line.starts("begin")) {
            next++;
            return block(line);
        }
        if (line.starts("if")) {
            problem(guard.where(), "an if line without [AND] or [OR] is followed by another if line: link them with"
                    + " [AND] or [OR], or put the rule this condition guards after it");
        }
        Step step = statement();
        return step == null ? new Step[0] : new Step[] {step};
    }
}
