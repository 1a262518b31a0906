package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.jwd.config.SessionTableDiskConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persistent session table's directory as jwd 1.0 wrote it (format 1: {@code format} beside Ehcache's
 * generation), kept under {@code src/test/resources/org/jwd/sessiontable/golden/}: every later jwd must read it.
 * A new format adds a fixture beside it; this one is never written again. {@code -Djwd.golden.write=<src/core>}
 * writes a fixture of the latest format into that module's test resources, for a new format's first commit.
 */
class SessionTableGoldenFileTest {
    /** When the fixture was written: 2026-01-01 00:00 UTC. */
    private static final long WRITTEN_AT = 1_767_225_600_000L;
    private static final String FIXTURE = "golden/session-table-format-1";
    private static final String ESID = SessionTimeouts.esidKey("golden-esid");
    private static final Set<String> SERVERS = Set.of("s1", "s2", "s3");

    @TempDir
    Path dir;

    private static PersistentSessionTable open(Path directory, long nowMillis) {
        EhcacheSessionTable live = new EhcacheSessionTable(new SessionTimeouts(Duration.ofMinutes(30),
                Duration.ofMinutes(10)), 1_000, 1_000, 0, () -> nowMillis, null);
        return new PersistentSessionTable(live, new SessionTableDiskConfig(directory, Duration.ofSeconds(30)), 1_000,
                SERVERS::contains, () -> nowMillis, null);
    }

    private Path copyOfFixture() throws IOException, URISyntaxException {
        Path fixture = Path.of(getClass().getResource(FIXTURE).toURI());
        Path copy = dir.resolve("table");
        try (Stream<Path> tree = Files.walk(fixture)) {
            for (Path source : (Iterable<Path>) tree::iterator) {
                Path target = copy.resolve(fixture.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        // Ehcache takes a data file changed after its index was written for one a crash left (and starts that store
        // empty): its time as Ehcache left it, before the index's, which a checkout of the sources does not keep
        try (Stream<Path> tree = Files.walk(copy)) {
            for (Path data : (Iterable<Path>) tree.filter(p -> p.toString().endsWith(".data"))::iterator) {
                Files.setLastModifiedTime(data, FileTime.fromMillis(WRITTEN_AT));
            }
        }
        return copy;
    }

    @Test
    void theDirectoryJwd10WroteIsReadWithEveryBindingAndItsIdleTimeLeft() throws Exception {
        Path table = copyOfFixture();
        PersistentSessionTable read = open(table, WRITTEN_AT + Duration.ofMinutes(5).toMillis());
        try {
            assertThat(read.persistence().flushFailure()).isNull();
            assertThat(read.persistence().restored()).isEqualTo(3);
            assertThat(read.peek("golden-jsession-1")).isEqualTo("s1");
            assertThat(read.idleLeft("golden-jsession-1")).isEqualTo(Duration.ofMinutes(5));
            assertThat(read.peek("golden-jsession-2")).isEqualTo("s3");
            assertThat(read.idleLeft("golden-jsession-2")).as("used 2 minutes after the others")
                    .isEqualTo(Duration.ofMinutes(7));
            assertThat(read.peek(ESID)).isEqualTo("s2");
            assertThat(read.idleLeft(ESID)).isEqualTo(Duration.ofMinutes(25));
        } finally {
            read.close();
        }
        assertThat(Files.readString(table.resolve("format"))).isEqualTo("jwd session table 1\n");
    }

    @Test
    void aDirectoryOfANewerFormatIsNeitherReadNorWrittenNorDeleted() throws Exception {
        Path table = copyOfFixture();
        Files.writeString(table.resolve("format"), "jwd session table 2\n");
        Map<String, Long> before = contents(table);

        PersistentSessionTable refused = open(table, WRITTEN_AT + Duration.ofMinutes(5).toMillis());
        try {
            assertThat(refused.persistence().restored()).isZero();
            assertThat(refused.peek("golden-jsession-1")).as("the table starts empty").isNull();
            assertThat(refused.persistence().flushFailure()).isEqualTo(table.resolve("format") + ": session table in"
                    + " format 2, written by a later jwd; this jwd reads format 1: left as it is, not read");
            assertThat(refused.bind("new-session", "s1")).as("served from memory").isEqualTo("s1");
            refused.flush();
        } finally {
            refused.close();
        }
        assertThat(contents(table)).as("every file as it was").isEqualTo(before);
    }

    /** Each file's path and size, and the format file's text. */
    private static Map<String, Long> contents(Path root) throws IOException {
        Map<String, Long> files = new TreeMap<>();
        try (Stream<Path> tree = Files.walk(root)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                if (Files.isRegularFile(p)) {
                    files.put(root.relativize(p) + "@" + Files.getLastModifiedTime(p).toMillis(), Files.size(p));
                }
            }
        }
        return files;
    }

    /** Writes a fixture of the latest format: three bindings, as the tests above read them. */
    @Test
    @EnabledIfSystemProperty(named = "jwd.golden.write", matches = ".+")
    void writeTheFixture() throws IOException {
        Path target = Path.of(System.getProperty("jwd.golden.write"),
                "src/test/resources/org/jwd/sessiontable/golden/session-table-format-" + DiskGenerations.FORMAT.latest());
        PersistentSessionTable table = open(target, WRITTEN_AT);
        table.bind("golden-jsession-1", "s1");
        table.bind(ESID, "s2");
        table.close();
        PersistentSessionTable later = open(target, WRITTEN_AT + Duration.ofMinutes(2).toMillis());
        later.bind("golden-jsession-2", "s3");
        later.close();
    }
}
