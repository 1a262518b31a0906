package org.jwd.balancing;

/**
 * The best and the second best member of one scan over a group, each with the two figures it was ranked by: a
 * primary key and a tie-break, whose order the balancer defines. The second best is kept so that a pick that
 * loses its compare-and-set on the best to another thread can take the second without scanning again.
 *
 * <p>One per pick, never shared between threads; it does not escape the pick, so the JIT can keep its fields
 * in registers.
 */
final class Podium {
    /** member index, or -1 while none ranked */
    int best = -1;
    long bestKey;
    long bestTie;
    /** member index, or -1 while fewer than two ranked */
    int second = -1;
    long secondKey;
    long secondTie;

    /** Before a new scan. */
    void clear() {
        best = -1;
        second = -1;
    }

    /** Member i ranks above the best so far, which becomes the second. */
    void newBest(int i, long key, long tie) {
        second = best;
        secondKey = bestKey;
        secondTie = bestTie;
        best = i;
        bestKey = key;
        bestTie = tie;
    }

    /** Member i ranks below the best but above the second so far. */
    void newSecond(int i, long key, long tie) {
        second = i;
        secondKey = key;
        secondTie = tie;
    }
}
