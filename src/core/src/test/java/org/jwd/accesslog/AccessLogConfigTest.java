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
        assertThat(c.files()).isEqualTo(new FileRules(AccessLogConfig.Switch.HOUR, 10, 5, false, true));
        assertThat(c.filter()).isEqualTo(AccessLogConfig.Filter.ALL);
        assertThat(c.flush()).isTrue();
    }

    /** The line SAP Solution Manager's setup writes into an instance profile. */
    @Test
    void readsTheLineOfSapSolutionManagerDiagnostics() throws ConfigException {
        AccessLogConfig c = AccessLogConfig.parse("icm/HTTP/logging_0", "PREFIX=/,LOGFILE=" + dir + "/icmhttph.log,"
                + "FILTER=SAPSMD,LOGFORMAT=SAPSMD,MAXSIZEKB=10240,FILEWRAP=on,SWITCHTF=month").orElseThrow();
        assertThat(c.filter()).isEqualTo(AccessLogConfig.Filter.SAPSMD);
        assertThat(c.format().toString()).isEqualTo("SAPSMD");
        assertThat(c.files()).isEqualTo(new FileRules(AccessLogConfig.Switch.MONTH, 10240, 0, true, true));
    }

    @Test
    void readsFlushAndAppendAsSapWritesThem() throws ConfigException {
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + dir + "/a, FLUSH=FALSE, APPEND=false").orElseThrow();
        assertThat(c.flush()).isFalse();
        assertThat(c.files().append()).isFalse();
    }

    @Test
    void defaultsToTheWholeSiteInSapsDefaultFormatClf() throws ConfigException {
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + dir + "/access").orElseThrow();
        assertThat(c.prefix()).isEqualTo("/");
        assertThat(c.format().toString()).isEqualTo("CLF");
        assertThat(c.files()).isEqualTo(FileRules.ONE_FILE);
        assertThat(c.filter()).isEqualTo(AccessLogConfig.Filter.ALL);
        assertThat(c.flush()).isTrue();
    }

    @Test
    void refusesWhatItCannotHonourNamingTheKeyAndTheSubParameter() {
        assertThatThrownBy(() -> AccessLogConfig.parse("icm/HTTP/logging_3", "LOGFILE=" + dir + "/a, FILTER=STATUS"))
                .hasMessageStartingWith("icm/HTTP/logging_3: FILTER = 'STATUS': jwd honours FILTER=SAPSMD only");
        assertThatThrownBy(() -> AccessLogConfig.parse("icm/HTTP/logging_3", "LOGFILE=" + dir + "/a, LOGFORMAT=SAPSMD2"))
                .hasMessageStartingWith("icm/HTTP/logging_3: LOGFORMAT = 'SAPSMD2': SAP's SAPSMD2 writes every");
        assertThatThrownBy(() -> AccessLogConfig.parse("icm/HTTP/logging_3", "LOGFILE=" + dir + "/a, LOGFORMAT=CLFX"))
                .hasMessageStartingWith("icm/HTTP/logging_3: LOGFORMAT = 'CLFX': no format of that name: expected CLF,");
        assertThatThrownBy(() -> AccessLogConfig.parse("icm/HTTP/logging_3", "LOGFILE=" + dir + "/a, FILEWRAP=on,"
                + " MAXFILES=3")).hasMessageStartingWith("icm/HTTP/logging_3: FILEWRAP=on keeps one file, MAXFILES");
    }

    @Test
    void isOffWhenNotActive() throws ConfigException {
        assertThat(AccessLogConfig.parse("LOGFILE=" + dir + "/access, ACTIVE=FALSE")).isEmpty();
    }

    @Test
    void namesTheKeyAndEverySubParameterThatIsWrong() {
        assertThatThrownBy(() -> AccessLogConfig.parse("LOGFILE=" + dir + "/a, SWITCHTF=week, MAXSIZEKB=-1,"
                + " FLUSH=sometimes, LOGFORMAT=%q, COLOUR=red"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).hasSize(5).allSatisfy(
                        p -> assertThat(p).startsWith("icm/HTTP/logging_0")))
                .hasMessageContaining("SWITCHTF = 'week'").hasMessageContaining("MAXSIZEKB = '-1'")
                .hasMessageContaining("FLUSH = 'sometimes': expected TRUE or FALSE")
                .hasMessageContaining("'COLOUR=red' is no known sub-parameter")
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

        AccessLogConfig c = AccessLogConfigs.read(keys).handlers().get(0);
        keys.check();

        assertThat(c.logFile()).isEqualTo(dir.resolve("logs/access-%y-%m-%d").toString());
    }

    @Test
    void aRelativeLogFileWhoseDirectoryIsMissingThereIsNamedWithItsPath() {
        KeyReader keys = KeyReader.parse("icm/HTTP/logging_0=LOGFILE=nowhere/access\n", "jwd.properties", dir);

        AccessLogConfigs.read(keys);

        assertThatThrownBy(keys::check).hasMessageContaining("LOGFILE = 'nowhere/access': its directory "
                + dir.resolve("nowhere") + " does not exist");
    }
}
