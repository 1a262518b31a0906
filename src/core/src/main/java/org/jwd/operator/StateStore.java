package org.jwd.operator;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Where the operator's decisions are kept: a file for one node ({@link StateFile}), the Terracotta server for a
 * cluster ({@link ClusterStates}). Every method may throw {@link StoreException}: the decisions then hold in memory
 * and the failure is said.
 */
interface StateStore extends AutoCloseable {
    /** Every decision kept now, by server id. */
    Map<String, Decision> load();

    /** Changes the decisions kept, atomically against every other writer; returns them as written. */
    Map<String, Decision> update(UnaryOperator<Map<String, Decision>> change);

    /** Whether other nodes write here too: then it is read again every second. */
    boolean shared();

    @Override
    void close();

    /** The store cannot be read or written now. */
    final class StoreException extends RuntimeException {
        StoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
