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
 * Builds the balancer of a group: the configured strategy ({@code wdisp/load_balancing_strategy}, by capacity)
 * for every group, logon groups included; a logon group also keeps its type's quality view for reporting, and
 * lets that view choose only when it opts in with {@code logon_group.<G>.http_balancing=quality}.
 *
 * <table>
 * <caption>Strategies</caption>
 * <tr><th>group</th><th>setting</th><th>implementation</th></tr>
 * <tr><td>any</td><td>{@code weighted_round_robin} (default)</td><td>{@link WeightedRoundRobin}</td></tr>
 * <tr><td>any</td><td>{@code simple_weighted_round_robin}</td><td>{@link SimpleWeightedRoundRobin}</td></tr>
 * <tr><td>logon</td><td>{@code http_balancing=strategy} (default)</td><td>{@link LogonGroupByCapacity}: one of
 *     the two above, with the type's view beside it</td></tr>
 * <tr><td>logon</td><td>{@code http_balancing=quality}, type {@code B}</td><td>{@link BestQuality}</td></tr>
 * <tr><td>logon</td><td>{@code http_balancing=quality}, type {@code R} or {@code W}</td>
 *     <td>{@link QualityRoundRobin}</td></tr>
 * </table>
 */
public final class Balancers {
    private Balancers() {
    }

    /**
     * @param group    the servers to balance over; a logon group when {@link ServerGroup#isLogonGroup()}
     * @param config   {@code wdisp/load_balancing_strategy}, and {@code rdisp/autoabaptime} for logon groups of
     *                 type {@code B}
     * @param nanoTime the clock for refresh and recompute intervals (tests move it by hand)
     * @param random   start offsets and tie orders; used while building, and by logon groups at each refresh
     *                 (by one thread at a time), so it need not be thread-safe
     * @throws IllegalArgumentException for a strategy or logon group type that does not exist
     */
    public static Balancer create(ServerGroup group, DispatcherConfig config, LongSupplier nanoTime,
                                  RandomGenerator random) {
        if (!group.isLogonGroup()) {
            return strategy(group, config, random);
        }
        LogonGroupBalancer qualities = qualities(group, config, nanoTime, random);
        return group.logonGroup().httpBalancing() == LogonGroupConfig.HttpBalancing.QUALITY ? qualities
                : new LogonGroupByCapacity(strategy(group, config, random), qualities);
    }

    private static Balancer strategy(ServerGroup group, DispatcherConfig config, RandomGenerator random) {
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

    /** The message server's view of a logon group: its type's qualities. */
    private static LogonGroupBalancer qualities(ServerGroup group, DispatcherConfig config, LongSupplier nanoTime,
                                                RandomGenerator random) {
        LogonGroupConfig lg = group.logonGroup();
        return switch (Character.toUpperCase(lg.type())) {
            case 'B' -> new BestQuality(group, config.autoAbapTime(), nanoTime, random);
            case 'R' -> QualityRoundRobin.roundRobin(group, nanoTime, random);
            case 'W' -> QualityRoundRobin.weighted(group, nanoTime, random);
            default -> throw new IllegalArgumentException(
                    lg + ": type '" + lg.type() + "' is not one of B, R, W");
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
