package org.jwd.modification;

import java.util.List;

/**
 * An action file as read once, at the start or a reload: its rules in order, their patterns compiled, their
 * variables resolved. Immutable; a request runs it with its own {@link Context}.
 *
 * <p>"When an HTTP request arrives, the modification actions defined in the action file are processed in
 * succession. In the event of a successful URL filtering or URL redirect, rule processing stops." (SAP,
 * "Defining HTTP Request Modifications — Creating and Maintaining an Action File").
 *
 * @param name  the file as the configuration names it
 * @param steps its rules and conditions
 * @param lines every line that is neither blank nor a comment, in the file's order, for the admin page
 */
public record ActionFile(String name, Step[] steps, List<Where> lines) {
    /** No rule: a handler without {@code FILE}, as SAP's default {@code icm/HTTP/mod_0 = PREFIX=/}. */
    static final ActionFile EMPTY = new ActionFile("(no action file)", new Step[0], List.of());

    public ActionFile {
        lines = List.copyOf(lines);
    }

    /** Runs the file's rules on the request until a {@code [break]}, an answer or the end. */
    void run(Context context) {
        run(steps, context);
    }

    /** @return whether the file stops here: a rule with {@code [break]} took effect, or jwd answers */
    private static boolean run(Step[] steps, Context context) {
        for (Step step : steps) {
            if (step instanceof Step.Branch branch) {
                Step[] next = Condition.chainHolds(branch.conditions(), context) ? branch.then() : branch.otherwise();
                if (run(next, context)) {
                    return true;
                }
            } else {
                Action action = ((Step.Rule) step).action();
                boolean applied = action.apply(context);
                if (context.answered() || applied && action.breaks()) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "ActionFile[" + name + ", " + lines.size() + " lines]";
    }
}
