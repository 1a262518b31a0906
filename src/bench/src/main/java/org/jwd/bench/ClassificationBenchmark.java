package org.jwd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.routing.BadPathException;
import org.jwd.routing.Classification;
import org.jwd.routing.GroupResolver;
import org.jwd.routing.PathNormalizer;
import org.jwd.routing.UrlMappingTable;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What routing costs a request: normalizing its path and classifying it against a URL mapping table of 300
 * entries (SAP's default wdisp/max_url_map_entries) with a few logon groups.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClassificationBenchmark {
    @Param({
            "/sap/bc/ui5_ui5/ui2/ushell/shells/abap/FioriLaunchpad.html",
            "/sap/opu/odata/sap/SRV_0150/Entities",
            "/irj/portal/home/page.jsp",
            "/nwa/monitoring/sessions;jsessionid=ABC123.node1",
            "/sap(bD1lbiZjPTAwMQ==)/bc/gui/sap/its/webgui/x%20y"})
    public String path;

    private GroupResolver resolver;

    @Setup
    public void setUp() throws ConfigException {
        List<String> prefixes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            prefixes.add("/sap/bc/app" + i + "/");
            prefixes.add("/sap/opu/odata/sap/SRV_" + String.format("%04d", i) + "/");
            prefixes.add("/z" + i + "/service/");
        }
        prefixes.set(0, "/sap/bc/ui5_ui5/");
        prefixes.set(1, "/sap/bc/gui/");
        DispatcherConfig config = ConfigReader.parse("""
                server.a1.url = http://abap1:8000
                server.a1.type = abap
                server.a1.logon_groups = FIN
                server.j1.url = http://java1:50000
                server.j1.type = j2ee
                server.j1.logon_groups = PORTAL
                logon_group.PORTAL.url_prefixes = /irj, /irj/portal/
                logon_group.FIN.url_prefixes = /sap/bc/fin/, /sap/opu/odata/sap/SRV_0007/
                """ + "icf.url_prefixes = " + String.join(", ", prefixes) + "\n", "benchmark");
        UrlMappingTable table = UrlMappingTable.parse(config.urlMapping().urlPrefixes());
        if (table.size() != 300) {
            throw new IllegalStateException("expected 300 entries, got " + table.size());
        }
        resolver = new GroupResolver(config, Topology.of(config), () -> table);
    }

    /** The share of the path normalization alone. */
    @Benchmark
    public Object normalize() throws BadPathException {
        return PathNormalizer.normalize(path);
    }

    @Benchmark
    public Classification normalizeAndClassify() throws BadPathException {
        return resolver.classify(PathNormalizer.normalize(path), false);
    }
}
