package org.jwd.sessiontable;

/**
 * The session table's figures at one instant.
 *
 * @param hits        lookups that found a binding
 * @param misses      lookups that found none
 * @param bindings    new bindings made (first binding of a session id)
 * @param rebindings  bindings replaced because the bound server was gone
 * @param expirations entries removed after {@code SessionTableTimeout} of inactivity
 * @param rejected    bindings not stored because the table was full (those requests were balanced)
 */
public record SessionTableStats(long entries, long hits, long misses, long bindings, long rebindings,
                                long expirations, long rejected) {
}
