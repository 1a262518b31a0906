package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;

import org.jwd.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * The systems' configuration problems read as every other: {@code file:line: key = 'value': ...}, and all of a
 * file's problems come in one report, the systems' with the rest.
 */
class SystemsConfigProblemsTest {
    private static List<String> problems(String properties) {
        return catchThrowableOfType(ConfigException.class, () -> ConfigReader.parse(properties, "jwd.properties"))
                .problems();
    }

    @Test
    void aBadEntryAndAnUnknownKeyElsewhereComeInOneReportEachWithItsLine() {
        List<String> problems = problems("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=prt, SRCURL=/irj/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                no.such.key=1
                SessionTableTimeout=soon
                """);

        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("jwd.properties:5: no.such.key = '1': expected a known key");
        assertThat(problems).contains("jwd.properties:6: SessionTableTimeout = 'soon': expected milliseconds, or a"
                        + " number with a unit (500ms, 30s, 10m, 1h); 0 turns the table off",
                "jwd.properties:2: wdisp/system_1 = 'SID=prt, SRCURL=/irj/': SID 'prt': expected three capital"
                        + " letters or digits starting with a letter (ERP, PR1)");
    }

    @Test
    void everyKindOfSystemsProblemNamesItsLine() {
        List<String> problems = problems("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_01=SID=QAS, SRCURL=/qas/
                wdisp/system_conflict_resolution=2
                jwd.default_system=XYZ
                system.XYZ.icf.url_prefixes=/sap/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                system.ERP.jwd.debug_headers=true
                server.a.url=http://127.0.0.1:9002
                server.a.type=j2ee
                """);

        assertThat(problems).allSatisfy(p -> assertThat(p).matches("jwd\\.properties:\\d+: .*"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("jwd.properties:2: wdisp/system_01 = "))
                .anySatisfy(p -> assertThat(p).startsWith("jwd.properties:3: wdisp/system_conflict_resolution = '2'"))
                .anySatisfy(p -> assertThat(p).startsWith("jwd.properties:4: jwd.default_system = 'XYZ'"))
                .anySatisfy(p -> assertThat(p).startsWith("jwd.properties:5: system.XYZ.icf.url_prefixes = '/sap/'"))
                .anySatisfy(p -> assertThat(p).startsWith("jwd.properties:8: system.ERP.jwd.debug_headers = 'true':"
                        + " jwd.debug_headers is one setting for the whole jwd"))
                .anySatisfy(p -> assertThat(p).startsWith("jwd.properties:9: server.a.url = 'http://127.0.0.1:9002':"
                        + " with wdisp/system_<xx> entries every server belongs to a system"));
    }

    @Test
    void anOverlapIsNamedAtTheLaterEntrysLine() {
        List<String> problems = problems("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                wdisp/system_1=SID=QAS, SRCURL=/SAP/
                system.QAS.server.q1.url=http://127.0.0.1:9002
                system.QAS.server.q1.type=j2ee
                """);

        assertThat(problems).containsExactly("jwd.properties:4: wdisp/system_0 (ERP) and wdisp/system_1 (QAS) overlap:"
                + " a request with any SRCSRV, any SRCVHOST, SRCURL /sap/ meets both: expected criteria that tell them"
                + " apart, or wdisp/system_conflict_resolution = 1 (the first in entry order takes such requests)");
    }

    @Test
    void aSystemsBadServerKeyIsNamedAsWrittenAtItsLineWithTheFilesOtherProblems() {
        List<String> problems = problems("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCURL=/irj/
                system.ERP.server.erp1.url=ftp://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                system.PRT.server.prt1.url=http://127.0.0.1:9002
                system.PRT.server.prt1.type=j2ee
                system.PRT.server.prt1.max_connections=many
                no.such.key=1
                """);

        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("jwd.properties:8: no.such.key = '1'");
        assertThat(problems.get(1)).startsWith("jwd.properties:3: system ERP: system.ERP.server.erp1.url ="
                + " 'ftp://127.0.0.1:9001': expected http://host:port");
        assertThat(problems.get(2)).startsWith("jwd.properties:7: system PRT: system.PRT.server.prt1.max_connections"
                + " = 'many': expected");
    }

    @Test
    void aSharedKeysProblemIsReportedOnceNotOncePerSystem() {
        List<String> problems = problems("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCURL=/irj/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                system.PRT.server.prt1.url=http://127.0.0.1:9002
                system.PRT.server.prt1.type=j2ee
                wdisp/load_balancing_strategy=random
                """);

        assertThat(problems).containsExactly("jwd.properties:7: wdisp/load_balancing_strategy = 'random': expected"
                + " weighted_round_robin or simple_weighted_round_robin");
    }

    @Test
    void aServerIdTwoSystemsDescribeDifferentlyIsNamedAtTheLaterSystemsKey() {
        List<String> problems = problems("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCURL=/irj/
                system.ERP.server.s1.url=http://127.0.0.1:9001
                system.ERP.server.s1.type=j2ee
                system.PRT.server.s1.url=http://127.0.0.1:9002
                system.PRT.server.s1.type=j2ee
                """);

        assertThat(problems).containsExactly("jwd.properties:6: server s1: systems ERP and PRT describe it"
                + " differently; a server id names one server across the systems (give each system's server its own"
                + " id)");
    }
}
