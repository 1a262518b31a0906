package org.jwd.sessiontable;

import java.time.Duration;
import java.util.function.Supplier;

import org.ehcache.expiry.ExpiryPolicy;

/**
 * Time to idle, as {@code ExpiryPolicyBuilder.timeToIdleExpiration}, but with the timeout of the entry's kind in
 * force at each use, so that a reload can change it without a new cache (which would lose the bindings). A read
 * inside {@link #peeking} leaves the idle time alone ({@code null}: Ehcache keeps the expiry as it is).
 */
final class IdleExpiry implements ExpiryPolicy<String, String> {
    /** Set while a peek reads, on the reading thread. */
    private static final ThreadLocal<Boolean> PEEKING = new ThreadLocal<>();
    /** Set while a binding read back from disk is stored: the idle time it had left when jwd stopped. */
    private static final ThreadLocal<Duration> RESTORING = new ThreadLocal<>();

    private volatile SessionTimeouts timeouts;

    IdleExpiry(SessionTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    SessionTimeouts timeouts() {
        return timeouts;
    }

    /** New entries get these at once, existing ones from their next use. */
    void change(SessionTimeouts next) {
        timeouts = next;
    }

    /** Runs a read that must not renew the idle time of what it reads. */
    static <T> T peeking(Supplier<T> read) {
        PEEKING.set(Boolean.TRUE);
        try {
            return read.get();
        } finally {
            PEEKING.remove();
        }
    }

    /** Runs a write of a restored binding, whose idle time is {@code remaining} rather than a whole timeout. */
    static <T> T restoring(Duration remaining, Supplier<T> write) {
        RESTORING.set(remaining);
        try {
            return write.get();
        } finally {
            RESTORING.remove();
        }
    }

    @Override
    public Duration getExpiryForCreation(String key, String value) {
        Duration remaining = RESTORING.get();
        return remaining != null ? remaining : timeouts.forKey(key);
    }

    @Override
    public Duration getExpiryForAccess(String key, Supplier<? extends String> value) {
        return PEEKING.get() != null ? null : timeouts.forKey(key);
    }

    @Override
    public Duration getExpiryForUpdate(String key, Supplier<? extends String> oldValue, String newValue) {
        return timeouts.forKey(key);
    }
}
