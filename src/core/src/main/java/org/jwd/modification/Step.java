package org.jwd.modification;

/**
 * A piece of an action file as it runs: a rule, or conditions with what runs when they hold and, from SAP's release
 * 7.40, what runs when they do not ({@code else}, blocks of {@code begin} ... {@code end}).
 */
sealed interface Step permits Step.Rule, Step.Branch {
    /** One rule, run when it is reached. */
    record Rule(Action action) implements Step {
    }

    /**
     * A chain of {@code if} lines and the steps they guard.
     *
     * @param otherwise what runs when the chain does not hold: empty without {@code else}
     */
    record Branch(Condition[] conditions, Step[] then, Step[] otherwise) implements Step {
    }
}
