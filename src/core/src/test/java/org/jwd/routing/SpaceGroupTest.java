package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SPACE, the implicit logon group of every server, has no URL prefix: it selects no URL. */
class SpaceGroupTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/", "/SPACE", "/SPACE/x", "/space/x", "/irj/x"})
    void spaceSelectsNoUrl(String path) throws Exception {
        DispatcherConfig config = ConfigReader.parse("""
                server.j1.url=http://127.0.0.1:8001
                server.j1.type=j2ee
                """, "test");
        Topology topology = Topology.of(config);
        GroupResolver resolver = new GroupResolver(config, topology, () -> UrlMappingTable.parse(List.of()));

        Classification c = resolver.classify(PathNormalizer.normalize(path), false);

        assertThat(topology.logonGroup("SPACE", c.type(), false).members()).isNotEmpty();
        assertThat(c.groupName()).as(c.reason()).isEqualTo("!J2EE");
    }
}
