package org.jwd.sessiontable;

/**
 * The shared store behind {@link ClusteredSessionTable}: session id -> encoded {@link ClusterBinding}, with
 * atomic conditional writes across every node. {@link TerracottaBindingStore} keeps it on a Terracotta server;
 * tests use a map. Every operation either answers within a bounded time or throws {@link UnavailableException}.
 */
interface BindingStore extends AutoCloseable {

    /** Connects when not connected yet; once connected, the client reconnects by itself after a loss. */
    void connect();

    /**
     * Drops the client, so that the next {@link #connect()} starts anew: for a client that has not recovered by
     * itself long after its server came back.
     */
    void disconnect();

    String get(String key);

    /** @return the value stored before, or {@code null} when this one was stored */
    String putIfAbsent(String key, String value);

    /** Replaces {@code expected} with {@code value}, atomically. */
    boolean replace(String key, String expected, String value);

    @Override
    void close();

    /** The store cannot be reached now (not connected, timed out, reconnecting): serve without it. */
    final class UnavailableException extends RuntimeException {
        UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
