package org.jwd.balancing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.balancing.Fixtures.logon;
import static org.jwd.balancing.Fixtures.logonByStrategy;
import static org.jwd.balancing.Fixtures.noRandom;
import static org.jwd.balancing.Fixtures.sequence;
import static org.jwd.balancing.Fixtures.servers;
import static org.jwd.balancing.Fixtures.split;

import java.time.Duration;
import java.util.List;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** A logon group's HTTP requests by capacity with wdisp/load_balancing_strategy; its type for reporting only. */
class LogonGroupByCapacityTest {
    private static final Duration REFRESH = Duration.ofSeconds(120);
    private static final DispatcherConfig WEIGHTED = Fixtures.config("");
    private static final DispatcherConfig SIMPLE =
            Fixtures.strategy(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN);

    private final Fixtures.Clock clock = new Fixtures.Clock();

    private Balancer byStrategy(char type, boolean extRfc, List<Server> servers, DispatcherConfig config) {
        return Balancers.create(logonByStrategy(type, extRfc, REFRESH, 200, servers), config, clock, noRandom());
    }

    private static List<Double> qualities(BalancerSnapshot view) {
        return view.members().stream().map(BalancerSnapshot.Member::weight).toList();
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(chars = {'B', 'R', 'W'})
    void balancesALogonGroupByWeightedRoundRobinWhateverItsType(char type) {
        Balancer balancer = byStrategy(type, true, servers(1, 2, 3), WEIGHTED);

        assertThat(sequence(balancer, 12)).isEqualTo(split("c b c a b c c b c a b c"));
        assertThat(balancer.snapshot().strategy()).isEqualTo(DispatcherConfig.WEIGHTED_ROUND_ROBIN);
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(chars = {'B', 'R', 'W'})
    void balancesALogonGroupBySimpleWeightedRoundRobinWhateverItsType(char type) {
        Balancer balancer = byStrategy(type, true, servers(1, 2, 3), SIMPLE);

        assertThat(sequence(balancer, 12)).isEqualTo(split("a b b c c c a b b c c c"));
        assertThat(balancer.snapshot().strategy()).isEqualTo(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN);
    }

    @Test
    void extRfcOffDoesNotSendEveryRequestToTheFavorite() {
        Balancer balancer = byStrategy('B', false, servers(1, 2, 3), WEIGHTED);

        assertThat(sequence(balancer, 12)).isEqualTo(split("c b c a b c c b c a b c"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "R | a b c a b c a b c a b c",   // R ignores capacity
            "B | c b c a b c c b c a b c"})
    void theOptInBalancesByTheTypesQualitiesWhateverTheStrategy(char type, String expected) {
        Balancer balancer = Balancers.create(logon(type, true, REFRESH, 200, servers(1, 2, 3)), SIMPLE, clock,
                noRandom());

        assertThat(sequence(balancer, 12)).isEqualTo(split(expected));
        assertThat(balancer.snapshot().strategy()).isEqualTo(String.valueOf(type));
        assertThat(balancer.snapshot().qualityView().strategy()).isEqualTo(String.valueOf(type));
    }

    @Test
    void reportsTheTypesQualitiesAndFavoriteBesideWhereTheNextRequestGoes() {
        Balancer balancer = byStrategy('B', true, servers(1, 2, 3), WEIGHTED);
        sequence(balancer, 1); // c

        BalancerSnapshot snapshot = balancer.snapshot();
        assertThat(snapshot.favorite()).as("the next HTTP request").isEqualTo("b");
        BalancerSnapshot view = snapshot.qualityView();
        assertThat(view.strategy()).isEqualTo("B");
        // HTTP requests are no logons: the message server's qualities stay those of idle servers
        assertThat(qualities(view)).containsExactly(1000.0, 2000.0, 3000.0);
        assertThat(view.favorite()).as("the message server's favorite").isEqualTo("c");
    }

    @Test
    void theTypeRViewKeepsItsQualitiesAndOrderWhileRequestsAreBalanced() {
        Balancer balancer = byStrategy('R', true, servers(1, 2, 3), WEIGHTED);
        sequence(balancer, 250); // more than refresh_dispatches: no dispatch counts in the view

        BalancerSnapshot view = balancer.snapshot().qualityView();
        assertThat(qualities(view)).containsExactly(1000.0, 1000.0, 1000.0);
        assertThat(view.favorite()).isEqualTo("a");
    }

    @Test
    void theTypeBViewIsRecomputedFromLoadEveryAutoAbapTimeWithoutAPick() {
        List<Server> servers = servers(1, 1);
        Balancer balancer = Balancers.create(logonByStrategy('B', true, REFRESH, 200, servers),
                Fixtures.config("rdisp/autoabaptime=300\n"), clock, noRandom());
        for (int k = 0; k < 3; k++) {
            servers.get(0).requestStarted(false); // a busy after the first measurement
        }
        assertThat(qualities(balancer.snapshot().qualityView())).containsExactly(1000.0, 1000.0);
        assertThat(balancer.snapshot().qualityView().favorite()).isEqualTo("a");

        clock.advance(Duration.ofSeconds(300));
        BalancerSnapshot view = balancer.snapshot().qualityView();
        assertThat(qualities(view)).containsExactly(250.0, 1000.0);
        assertThat(view.favorite()).isEqualTo("b");
    }

    @Test
    void theViewNeverFavorsAServerThatTakesNoNewRequests() {
        List<Server> servers = servers(1, 2, 3);
        Balancer balancer = byStrategy('B', true, servers, WEIGHTED);
        servers.get(2).setState(Server.State.DOWN);

        assertThat(balancer.snapshot().qualityView().favorite()).isEqualTo("b");
        assertThat(sequence(balancer, 6)).isEqualTo(split("b a b b a b"));
    }

    @Test
    void describesBothForLogs() {
        assertThat(byStrategy('W', true, servers(1, 2), WEIGHTED).toString())
                .startsWith(DispatcherConfig.WEIGHTED_ROUND_ROBIN + " over PUBLIC/j2ee[a, b]")
                .contains("; reported as logon group PUBLIC type W");
    }
}
