package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;

class AccessLogConfigTest {
    @TempDir
    Path dir;

    @Test
    void readsSapsSubParameters() throws ConfigException {
        AccessLogConfig c = AccessLogConfig.parse("PREFIX=/sap/, LOGFILE=" + dir + "/access-%y%m%d,"
                + " LOGFORMAT=%h %t \"%r\" %s %b, SWITCHTF=hour, MAXSIZEKB=10, MAXFILES=5").orElseThrow();
        assertThat(c.prefix()).isEqualTo("/sap/");
        assertThat(c.logFile()).isEqualTo(dir + "/access-%y%m%d");
        assertThat(c.format().toString()).isEqualTo("%h %t \"%r\" %s %b");
        assertThat(c.switchTf()).isEqualTo(AccessLogConfig.Switch.HOUR);
        assertThat(c.maxSizeKb()).isEqualTo(10);
        assertThat(c.maxFiles()).isEqualTo(5);
    }

    @Test
    void defaultsToTheWholeSiteInJwdsFormat() throws ConfigException {
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + dir + "/access").orElseThrow();
        assertThat(c.prefix()).isEqualTo("/");
        assertThat(c.format().toString()).isEqualTo("JWD");
        assertThat(c.switchTf()).isEqualTo(AccessLogConfig.Switch.NONE);
    }

    @Test
    void isOffWhenNotActive() throws ConfigException {
        assertThat(AccessLogConfig.parse("LOGFILE=" + dir + "/access, ACTIVE=FALSE")).isEmpty();
    }

    @Test
    void namesTheKeyAndEverySubParameterThatIsWrong() {
        assertThatThrownBy(() -> AccessLogConfig.parse("LOGFILE=" + dir + "/a, SWITCHTF=week, MAXSIZEKB=-1,"
                + " FILEWRAP=on, LOGFORMAT=%q"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).hasSize(4).allSatisfy(
                        p -> assertThat(p).startsWith("icm/HTTP/logging_0")))
                .hasMessageContaining("SWITCHTF = 'week'").hasMessageContaining("MAXSIZEKB = '-1'")
                .hasMessageContaining("'FILEWRAP=on' is a sub-parameter of SAP's that jwd does not support")
                .hasMessageContaining("LOGFORMAT = '%q'");
    }

    @Test
    void failsWhenTheLogFilesDirectoryIsMissing() {
        assertThatThrownBy(() -> AccessLogConfig.parse("LOGFILE=" + dir + "/missing/access"))
                .hasMessageContaining("icm/HTTP/logging_0: LOGFILE = '" + dir + "/missing/access': its directory")
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> AccessLogConfig.parse("PREFIX=/"))
                .hasMessageContaining("icm/HTTP/logging_0: LOGFILE is missing");
    }

    /** One rule for every file the configuration names: relative to its directory, not to jwd's working directory. */
    @Test
    void aRelativeLogFileIsInTheConfigurationFilesDirectory() throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        KeyReader keys = KeyReader.parse("icm/HTTP/logging_0=LOGFILE=logs/access-%y-%m-%d\n", "jwd.properties", dir);

        AccessLogConfig c = AccessLogConfig.read(keys);
        keys.check();

        assertThat(c.logFile()).isEqualTo(dir.resolve("logs/access-%y-%m-%d").toString());
    }

    @Test
    void aRelativeLogFileWhoseDirectoryIsMissingThereIsNamedWithItsPath() {
        KeyReader keys = KeyReader.parse("icm/HTTP/logging_0=LOGFILE=nowhere/access\n", "jwd.properties", dir);

        AccessLogConfig.read(keys);

        assertThatThrownBy(keys::check).hasMessageContaining("LOGFILE = 'nowhere/access': its directory "
                + dir.resolve("nowhere") + " does not exist");
    }
}
