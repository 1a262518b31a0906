package org.jwd.bench;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.jwd.balancing.Balancer;
import org.jwd.balancing.Balancers;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One pick as the router does it: pick, {@code requestStarted}, {@code requestFinished} (so requests in
 * flight stay realistic), for 2, 16 and 256 servers of capacities 1..4, per strategy, on one thread and on
 * two sharing one balancer. The target is under 1 µs per pick at 256 servers.
 *
 * <pre>
 * mvn -B -q -o test-compile
 * mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=cp.txt -Dmdep.includeScope=test
 * java -cp target/test-classes:target/classes:$(cat cp.txt) org.openjdk.jmh.Main BalancerBenchmark \
 *     -f 1 -wi 2 -w 1s -i 3 -r 1s -bm avgt -tu ns
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BalancerBenchmark {
    @Param({"2", "16", "256"})
    public int servers;

    @Param({"weighted_round_robin", "simple_weighted_round_robin", "B"})
    public String strategy;

    private Balancer balancer;

    @Setup
    public void setUp() throws Exception {
        List<Server> members = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            String id = "s" + i;
            members.add(new Server(new ServerConfig(id, URI.create("http://127.0.0.1:1"), null, ServerType.J2EE,
                    1 + i % 4, Set.of(), id, id, null, "/")));
        }
        boolean logon = strategy.length() == 1;
        DispatcherConfig config = ConfigReader.parse("server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n"
                + (logon ? "" : "wdisp/load_balancing_strategy=" + strategy + "\n"), "benchmark");
        ServerGroup group = new ServerGroup(logon ? "PUBLIC" : ServerGroup.J2EE, ServerType.J2EE, members,
                logon ? new LogonGroupConfig("PUBLIC", List.of("/"), strategy.charAt(0), false, true,
                        Duration.ofSeconds(120), 200, LogonGroupConfig.HttpBalancing.QUALITY, false) : null, false);
        balancer = Balancers.create(group, config, System::nanoTime, new SplittableRandom(42));
    }

    private Server pickAndServe() {
        Server s = balancer.pick();
        s.requestStarted(false);
        s.requestFinished(false);
        return s;
    }

    @Benchmark
    @Threads(1)
    public Server pickOneThread() {
        return pickAndServe();
    }

    @Benchmark
    @Threads(2)
    public Server pickTwoThreads() {
        return pickAndServe();
    }
}
