package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;

class AccessLogConfigsTest {
    @TempDir
    Path dir;

    private AccessLogConfigs read(Map<String, String> properties) throws ConfigException {
        KeyReader keys = KeyReader.of(properties, dir);
        AccessLogConfigs configs = AccessLogConfigs.read(keys);
        keys.checkEveryKeyRead();
        return configs;
    }

    /** SAP's indexes need not follow each other; the handlers come in the order of their numbers. */
    @Test
    void readsEveryHandlerInTheOrderOfItsNumber() throws ConfigException {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("icm/HTTP/logging_10", "PREFIX=/irj/, LOGFILE=" + dir + "/portal.log");
        p.put("icm/HTTP/logging_2", "PREFIX=/sap/, LOGFILE=" + dir + "/abap.log, LOGFORMAT=SAP");
        p.put("icm/HTTP/logging_3", "PREFIX=/, LOGFILE=" + dir + "/off.log, ACTIVE=FALSE");
        assertThat(read(p).handlers()).extracting(AccessLogConfig::key)
                .containsExactly("icm/HTTP/logging_2", "icm/HTTP/logging_10");
    }

    @Test
    void isAbsentWithoutAnActiveHandler() throws ConfigException {
        assertThat(read(Map.of())).isNull();
        assertThat(read(Map.of("icm/HTTP/logging_0", "LOGFILE=" + dir + "/a, ACTIVE=FALSE"))).isNull();
    }

    @Test
    void refusesTwoHandlersWritingOneFileNamingBoth() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("icm/HTTP/logging_0", "PREFIX=/sap/, LOGFILE=" + dir + "/access-%y-%m-%d");
        p.put("icm/HTTP/logging_1", "PREFIX=/irj/, LOGFILE=" + dir + "/./access-%y-%m-%d");
        p.put("icm/HTTP/logging_2", "PREFIX=/x/, LOGFILE=" + dir + "/other");
        p.put("icm/HTTP/logging_3", "PREFIX=/y/, LOGFILE=" + dir + "/other_0");
        assertThatThrownBy(() -> read(p)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
                        "icm/HTTP/logging_1: LOGFILE = '" + dir + "/./access-%y-%m-%d': icm/HTTP/logging_0 writes that"
                                + " file (LOGFILE = '" + dir + "/access-%y-%m-%d'): give each handler a file of its own",
                        "icm/HTTP/logging_3: LOGFILE = '" + dir + "/other_0': icm/HTTP/logging_2 writes that file"
                                + " (LOGFILE = '" + dir + "/other'): give each handler a file of its own"));
    }

    @Test
    void refusesAnIndexSapWouldNotRead() {
        assertThatThrownBy(() -> read(Map.of("icm/HTTP/logging_01", "LOGFILE=" + dir + "/a")))
                .hasMessageContaining("icm/HTTP/logging_01: expected icm/HTTP/logging_<xx>");
    }
}
