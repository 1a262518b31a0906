package org.jwd.admin;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Slows down guessing: per client address, the first {@code freeFailures} wrong credentials cost nothing; each
 * further one closes the door for a back-off that doubles, from {@code first} up to {@code max}. While the door
 * is closed every request of that address is refused at once (429 with {@code Retry-After}), right or wrong,
 * without computing a hash: no thread sleeps, and a guesser learns nothing. Good credentials reset the count;
 * so does {@code forgetAfter} without a failure.
 *
 * <pre>
 * freeFailures 5, first 2s, max 5m:  failures 1-4 -> no wait; 5th -> 2s; 6th (after those 2s) -> 4s; 7th -> 8s ...
 * </pre>
 *
 * <p>Lock-free apart from the map's per-entry compute; at most {@code maxAddresses} are tracked: beyond that,
 * addresses whose door is open are forgotten first.
 */
public final class LoginBackOff {
    private final int freeFailures;
    private final long firstNanos;
    private final long maxNanos;
    private final long forgetNanos;
    private final int maxAddresses;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /** @param blockedUntil nano time before which the address is refused (meaningful when failures > free) */
    private record Entry(int failures, long lastFailure, long blockedUntil) {
    }

    public LoginBackOff(int freeFailures, Duration first, Duration max, Duration forgetAfter, int maxAddresses,
                        LongSupplier nanoTime) {
        this.freeFailures = freeFailures;
        this.firstNanos = first.toNanos();
        this.maxNanos = max.toNanos();
        this.forgetNanos = forgetAfter.toNanos();
        this.maxAddresses = maxAddresses;
        this.nanoTime = nanoTime;
    }

    /** 5 free failures, then 2 s doubling up to 5 min; forgotten after 15 min; 10,000 addresses. */
    public static LoginBackOff standard() {
        return new LoginBackOff(5, Duration.ofSeconds(2), Duration.ofMinutes(5), Duration.ofMinutes(15), 10_000,
                System::nanoTime);
    }

    /** How long {@code address} must still wait, or {@link Duration#ZERO} when it may try now. */
    public Duration retryAfter(String address) {
        Entry e = entries.get(address);
        if (e == null || e.failures < freeFailures) {
            return Duration.ZERO;
        }
        long left = e.blockedUntil - nanoTime.getAsLong();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /**
     * Wrong credentials from {@code address}.
     *
     * @return how long the address is now refused; {@link Duration#ZERO} while its failures are free
     */
    public Duration failed(String address) {
        long now = nanoTime.getAsLong();
        if (entries.size() >= maxAddresses && !entries.containsKey(address)) {
            sweep(now);
        }
        Entry e = entries.compute(address, (a, before) -> {
            int failures = before == null || now - before.lastFailure > forgetNanos ? 1 : before.failures + 1;
            long blockedUntil = failures < freeFailures ? now : now + backOff(failures - freeFailures);
            return new Entry(failures, now, blockedUntil);
        });
        return Duration.ofNanos(Math.max(0, e.blockedUntil - now));
    }

    /** Good credentials from {@code address}: it starts afresh. */
    public void succeeded(String address) {
        if (!entries.isEmpty()) {
            entries.remove(address);
        }
    }

    /** The back-off after the (free + k + 1)-th failure: first * 2^k, at most max. */
    private long backOff(int k) {
        long d = firstNanos;
        for (int i = 0; i < k && d < maxNanos; i++) {
            d *= 2;
        }
        return Math.min(d, maxNanos);
    }

    /** Makes room: forgets the addresses that may try now, and if that is not enough, every address. */
    private void sweep(long now) {
        entries.values().removeIf(e -> e.blockedUntil - now <= 0);
        if (entries.size() >= maxAddresses) {
            entries.clear();
        }
    }

    /** Addresses tracked now; for tests. */
    int tracked() {
        return entries.size();
    }

    @Override
    public String toString() {
        return "LoginBackOff(" + freeFailures + " free failures, " + entries.size() + " addresses tracked)";
    }
}
