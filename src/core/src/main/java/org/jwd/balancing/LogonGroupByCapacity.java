package org.jwd.balancing;

import org.jwd.topology.Server;

/**
 * A logon group whose HTTP requests are balanced like those of any other group, by capacity with
 * {@code wdisp/load_balancing_strategy} (the default, {@code logon_group.<G>.http_balancing=strategy}): SAP's Web
 * Dispatcher balances "within this logon group" by capacity, while the SMLG types {@code B}, {@code R} and
 * {@code W} are how the message server hands out logons to SAP GUI and RFC clients.
 *
 * <p>The group's type is still reported as the message server would (its qualities and favorite, on the admin
 * page and in {@code lgtst}): a {@link LogonGroupBalancer} is kept beside the strategy for its view only. It
 * never picks, so its qualities fall with no HTTP request; type {@code B} still follows the members' load at
 * each {@code rdisp/autoabaptime}.
 *
 * <pre>
 * type R, capacities a=1, b=2, c=3, weighted_round_robin, scan from a  -> c b c a b c c b c a b c ...
 * the same with simple_weighted_round_robin                            -> a b b c c c a b b c c c ...
 * the same with http_balancing=quality (R ignores capacity), order a b c -> a b c a b c ...
 * </pre>
 */
final class LogonGroupByCapacity implements Balancer {
    private final Balancer strategy;
    private final LogonGroupBalancer qualities;

    LogonGroupByCapacity(Balancer strategy, LogonGroupBalancer qualities) {
        this.strategy = strategy;
        this.qualities = qualities;
    }

    @Override
    public Server pick() {
        return strategy.pick();
    }

    /** The strategy's figures and favorite (where the next request goes), with the quality view beside them. */
    @Override
    public BalancerSnapshot snapshot() {
        return strategy.snapshot().withQualityView(qualities.currentView());
    }

    @Override
    public String toString() {
        return strategy + "; reported as " + qualities;
    }
}
