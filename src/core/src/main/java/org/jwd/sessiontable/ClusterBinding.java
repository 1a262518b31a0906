package org.jwd.sessiontable;

/**
 * What the shared session table stores for a session: the bound server and when the binding was last written,
 * encoded as {@code "<serverId>|<stampMillis>"} (server ids never contain {@code |}).
 *
 * <p>Why the stamp: Ehcache expires clustered entries by idle time only "on a best effort basis", so an entry
 * used only through node B could expire for node A. Instead the entry carries the time of its last write, a
 * lookup rewrites it ({@code replace(old, new)}, atomic) once it is {@link #isDue due}, and every node judges
 * {@link #isLive liveness} from the stamp alone. With {@code T = SessionTableTimeout} and {@code R = T/4}:
 * <ul>
 *   <li>a use at time {@code u} rewrites the stamp when {@code u - stamp >= R}, so the last use {@code L} of a
 *       session, through any node, is always below {@code stamp + R};</li>
 *   <li>the binding is live while {@code now - stamp < T + R}: it lives at least {@code T} after its last use
 *       (never less, whichever node used it) and at most {@code T + R};</li>
 *   <li>the Terracotta server drops an entry {@code T + 2R} after its last write (time-to-live, measured from
 *       the last write): only once no node can consider it live any more.</li>
 * </ul>
 * Example, {@code T = 4s}: written at 0 s, used at 0.5 s (not due), used at 1.2 s (due: stamp := 1.2 s), then idle:
 * live until 6.2 s, stored until 7.2 s.
 *
 * @param serverId    the server the session is bound to
 * @param stampMillis epoch milliseconds of the last write, by the writing node's clock
 */
record ClusterBinding(String serverId, long stampMillis) {
    static final char SEPARATOR = '|';

    ClusterBinding {
        if (serverId == null || serverId.isEmpty() || serverId.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("server id: '" + serverId + "'");
        }
    }

    String encode() {
        return serverId + SEPARATOR + stampMillis;
    }

    /** @return the binding, or {@code null} for {@code null} or a value that is not of this form (treated as absent) */
    static ClusterBinding decode(String value) {
        if (value == null) {
            return null;
        }
        int at = value.lastIndexOf(SEPARATOR);
        if (at <= 0 || at == value.length() - 1) {
            return null;
        }
        try {
            return new ClusterBinding(value.substring(0, at), Long.parseLong(value.substring(at + 1)));
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    /** {@code R}: a use rewrites the stamp once it is this old. */
    static long refreshAfter(long timeoutMillis) {
        return Math.max(1, timeoutMillis / 4);
    }

    /** {@code T + R}: how long after its last write a binding is live. */
    static long liveFor(long timeoutMillis) {
        return timeoutMillis + refreshAfter(timeoutMillis);
    }

    /** {@code T + 2R}: the server's time-to-live, from the last write. */
    static long storedFor(long timeoutMillis) {
        return liveFor(timeoutMillis) + refreshAfter(timeoutMillis);
    }

    /** Is the binding still in force at {@code nowMillis}? A stamp ahead of this node's clock counts as fresh. */
    boolean isLive(long nowMillis, long timeoutMillis) {
        return nowMillis - stampMillis < liveFor(timeoutMillis);
    }

    /** Should a use at {@code nowMillis} rewrite the stamp? */
    boolean isDue(long nowMillis, long timeoutMillis) {
        return nowMillis - stampMillis >= refreshAfter(timeoutMillis);
    }

    @Override
    public String toString() {
        return encode();
    }
}
