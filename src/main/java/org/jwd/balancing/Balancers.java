package org.jwd.balancing;

import java.time.Duration;
import java.util.Locale;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.topology.ServerGroup;

/**
 * Builds the balancer of a group: the configured round robin strategy for an internal group, the logon
 * group's type for a logon group.
 *
 * <table>
 * <caption>Strategies</caption>
 * <tr><th>group</th><th>setting</th><th>implementation</th></tr>
 * <tr><td>internal</td><td>{@code weighted_round_robin} (default)</td><td>{@link WeightedRoundRobin}</td></tr>
 * <tr><td>internal</td><td>{@code simple_weighted_round_robin}</td><td>{@link SimpleWeightedRoundRobin}</td></tr>
 * <tr><td>logon</td><td>type {@code B} (default)</td><td>{@link BestQuality}</td></tr>
 * <tr><td>logon</td><td>type {@code R} or {@code W}</td><td>{@link QualityRoundRobin}</td></tr>
 * </table>
 */
public final class Balancers {
    private Balancers() {
    }

    /**
     * @param group    the servers to balance over; a logon group when {@link ServerGroup#isLogonGroup()}
     * @param config   {@code wdisp/load_balancing_strategy} for internal groups, {@code rdisp/autoabaptime}
     *                 for logon groups of type {@code B}
     * @param nanoTime the clock for refresh and recompute intervals (tests move it by hand)
     * @param random   start offsets and tie orders; used while building, and by logon groups at each refresh
     *                 (by one thread at a time), so it need not be thread-safe
     * @throws IllegalArgumentException for a strategy or logon group type that does not exist
     */
    public static Balancer create(ServerGroup group, DispatcherConfig config, LongSupplier nanoTime,
                                  RandomGenerator random) {
        if (group.isLogonGroup()) {
            LogonGroupConfig lg = group.logonGroup();
            return switch (Character.toUpperCase(lg.type())) {
                case 'B' -> new BestQuality(group, config.autoAbapTime(), nanoTime, random);
                case 'R' -> QualityRoundRobin.roundRobin(group, nanoTime, random);
                case 'W' -> QualityRoundRobin.weighted(group, nanoTime, random);
                default -> throw new IllegalArgumentException(
                        lg + ": type '" + lg.type() + "' is not one of B, R, W");
            };
        }
        String strategy = config.loadBalancingStrategy() == null
                ? DispatcherConfig.WEIGHTED_ROUND_ROBIN
                : config.loadBalancingStrategy().toLowerCase(Locale.ROOT);
        return switch (strategy) {
            case DispatcherConfig.WEIGHTED_ROUND_ROBIN -> new WeightedRoundRobin(group, random);
            case DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN -> new SimpleWeightedRoundRobin(group);
            default -> throw new IllegalArgumentException("wdisp/load_balancing_strategy '"
                    + config.loadBalancingStrategy() + "' is not " + DispatcherConfig.WEIGHTED_ROUND_ROBIN
                    + " or " + DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN);
        };
    }

    /** {@link #create(ServerGroup, DispatcherConfig, LongSupplier, RandomGenerator)} on the system clock. */
    public static Balancer create(ServerGroup group, DispatcherConfig config) {
        return create(group, config, System::nanoTime, new Random());
    }

    /**
     * A uniform int in [0, bound) from the generator's next long, scrambled first: the first {@code nextInt}
     * of {@code java.util.Random} objects made with neighbouring seeds are nearly equal, which would make
     * balancers started together break their ties alike. A generator that answers 0 gives 0.
     */
    static int uniform(RandomGenerator random, int bound) {
        long z = random.nextLong();
        // the SplitMix64 finalizer
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        z = z ^ (z >>> 31);
        // the high 32 bits scaled to [0, bound): no division, and a bias below bound / 2^32
        return (int) (((z >>> 32) * bound) >>> 32);
    }

    /** A duration in nanoseconds, saturated rather than overflowing for absurdly long settings. */
    static long nanos(Duration d) {
        try {
            return Math.min(d.toNanos(), Long.MAX_VALUE / 4);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }
}
