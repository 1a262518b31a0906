package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class KeyReaderTest {
    private static final Path DIR = Path.of("/etc/jwd");

    private static KeyReader file(String text) {
        return KeyReader.parse(text, "jwd.properties", DIR);
    }

    private static List<String> problems(KeyReader keys) {
        return catchThrowableOfType(ConfigException.class, keys::checkEveryKeyRead).problems();
    }

    @Test
    void readsEachTypeAndFallsBackWhenTheKeyIsAbsent() throws Exception {
        KeyReader keys = file("""
                name = value
                count=7
                timeout=30s
                ttl=90
                size=16KB
                flag=on
                url=http://h:1/
                list= a, ,b ,
                """);

        assertThat(keys.string("name", "x")).isEqualTo("value");
        assertThat(keys.integer("count", 0, 1, 10, "1 to 10")).isEqualTo(7);
        assertThat(keys.longInteger("absent", 42L, 0, 100, "a number")).isEqualTo(42L);
        assertThat(keys.duration("timeout", Duration.ZERO, false, "a duration")).isEqualTo(Duration.ofSeconds(30));
        assertThat(keys.seconds("ttl", Duration.ZERO, "seconds")).as("a plain number is seconds")
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(keys.size("size", 0, 1024, 1 << 20, "a size")).isEqualTo(16 * 1024);
        assertThat(keys.bool("flag", false)).isTrue();
        assertThat(keys.bool("absent.flag", true)).isTrue();
        assertThat(keys.url("url", Set.of("http"), false, "http://host:port")).isEqualTo(URI.create("http://h:1"));
        assertThat(keys.list("list")).containsExactly("a", "b");
        keys.checkEveryKeyRead();
    }

    @Test
    void readsARateAsASizeWithOrWithoutPerSecond() {
        KeyReader keys = file("""
                plain=512
                unit=1KB/s
                spaced = 2 kb/S
                zero=0
                slow=fast
                """);

        assertThat(keys.value("plain", 0L, "a rate", ValueSyntax::bytesPerSecond)).isEqualTo(512);
        assertThat(keys.value("unit", 0L, "a rate", ValueSyntax::bytesPerSecond)).isEqualTo(1024);
        assertThat(keys.value("spaced", 0L, "a rate", ValueSyntax::bytesPerSecond)).isEqualTo(2048);
        assertThat(keys.value("zero", 7L, "a rate", ValueSyntax::bytesPerSecond)).isZero();
        assertThat(keys.value("absent", 7L, "a rate", ValueSyntax::bytesPerSecond)).isEqualTo(7);
        assertThat(keys.value("slow", 7L, "bytes per second", ValueSyntax::bytesPerSecond)).isEqualTo(7);

        assertThat(problems(keys)).containsExactly("jwd.properties:5: slow = 'fast': expected bytes per second");
    }

    @Test
    void resolvesPathsAgainstTheConfigurationFilesDirectoryPassedIn() {
        String before = System.getProperty("jwd.config");
        System.setProperty("jwd.config", "/somewhere/else/jwd.properties");
        try {
            KeyReader keys = file("relative=tables/p.txt\nabsolute=/var/p.txt\nblank=\n");

            assertThat(keys.path("relative", "a file")).isEqualTo(DIR.resolve("tables/p.txt"));
            assertThat(keys.path("absolute", "a file")).isEqualTo(Path.of("/var/p.txt"));
            assertThat(keys.path("blank", "a file")).as("a blank value names no file").isNull();
            assertThat(keys.path("absent", "a file")).isNull();
        } finally {
            if (before == null) {
                System.clearProperty("jwd.config");
            } else {
                System.setProperty("jwd.config", before);
            }
        }
    }

    @Test
    void theBoundsOfARangeAreInsideIt() throws Exception {
        KeyReader keys = file("""
                low=5
                high=9
                smallest=1KB
                largest=2KB
                """);

        assertThat(keys.longInteger("low", 0, 5, 9, "5 to 9")).isEqualTo(5L);
        assertThat(keys.longInteger("high", 0, 5, 9, "5 to 9")).isEqualTo(9L);
        assertThat(keys.size("smallest", 0, 1024, 2048, "1 KB to 2 KB")).isEqualTo(1024L);
        assertThat(keys.size("largest", 0, 1024, 2048, "1 KB to 2 KB")).isEqualTo(2048L);
        keys.checkEveryKeyRead();
    }

    @Test
    void aRefusedDurationAnswersTheFallbackAndZeroOnlyWhereAllowed() {
        KeyReader keys = file("""
                bare=30
                zero=0
                never=0
                """);

        assertThat(keys.duration("bare", Duration.ofSeconds(3), false, "a duration")).isEqualTo(Duration.ofSeconds(3));
        assertThat(keys.millis("zero", Duration.ofSeconds(3), true, "milliseconds")).isZero();
        assertThat(keys.millis("never", Duration.ofSeconds(3), false, "positive milliseconds"))
                .isEqualTo(Duration.ofSeconds(3));

        assertThat(problems(keys)).containsExactly("jwd.properties:1: bare = '30': expected " + Durations.ADD_A_UNIT,
                "jwd.properties:3: never = '0': expected positive milliseconds");
    }

    @Test
    void namesFileLineKeyValueAndWhatIsExpectedForEveryType() {
        KeyReader keys = file("""
                count=eleven
                big=11
                timeout=soon
                zero=0
                ttl=-5
                size=2GB
                flag=maybe
                url=ftp://h:1
                """);

        assertThat(keys.integer("count", 1, 1, 10, "an integer from 1 to 10")).isEqualTo(1);
        keys.integer("big", 1, 1, 10, "an integer from 1 to 10");
        keys.duration("timeout", Duration.ZERO, true, "a duration");
        keys.duration("zero", Duration.ofSeconds(1), false, "a positive duration");
        keys.seconds("ttl", Duration.ofSeconds(1), "positive seconds");
        keys.size("size", 8192, 1024, 1 << 20, "a size up to 1 MB");
        assertThat(keys.bool("flag", true)).as("the fallback, with a problem").isTrue();
        assertThat(keys.url("url", Set.of("http"), false, "http://host:port")).isNull();

        assertThat(problems(keys)).containsExactly(
                "jwd.properties:1: count = 'eleven': expected an integer from 1 to 10",
                "jwd.properties:2: big = '11': expected an integer from 1 to 10",
                "jwd.properties:3: timeout = 'soon': expected a duration",
                "jwd.properties:4: zero = '0': expected a positive duration",
                "jwd.properties:5: ttl = '-5': expected positive seconds",
                "jwd.properties:6: size = '2GB': expected a size up to 1 MB",
                "jwd.properties:7: flag = 'maybe': expected true or false",
                "jwd.properties:8: url = 'ftp://h:1': expected http://host:port");
    }

    @Test
    void aKeyNoSectionReadIsUnknownAndNamedFirst() {
        KeyReader keys = file("""
                known=1
                colour=blue
                server.a.url=http://h:1
                server.a.weight=2
                server.a b.url=x
                """);
        keys.integer("known", 0, 0, 9, "a digit");
        for (String id : keys.ids(ServerSection.SERVERS)) {
            keys.raw("server." + id + ".url");
            keys.raw("server." + id + ".capacity");
        }
        keys.problem("known", "something else");

        assertThat(problems(keys)).containsExactly(
                "jwd.properties:2: colour = 'blue': expected a known key (" + KeyProblems.EVERY_KEY + ")",
                "jwd.properties:4: server.a.weight = '2': expected a known server key: one of capacity, url",
                "jwd.properties:5: server.a = 'b.url=x': expected a known key (" + KeyProblems.EVERY_KEY + ")",
                "jwd.properties:1: known = '1': expected something else");
    }

    @Test
    void aMalformedIdIsNamedOnceHoweverManySectionsAsk() {
        KeyReader keys = file("server.x!.url=http://h:1\n");

        assertThat(keys.ids(ServerSection.SERVERS)).isEmpty();
        assertThat(keys.ids(ServerSection.SERVERS)).isEmpty();
        assertThat(keys.ids(ServerSection.SERVERS)).isEmpty();

        assertThat(problems(keys)).containsExactly(
                "jwd.properties:1: server.x!.url = 'http://h:1': expected a server id of letters, digits, '_' or '-'");
    }

    @Test
    void anEmptyIdIsNamedAsAMalformedId() {
        KeyReader keys = file("server..url=http://h:1\n");

        assertThat(keys.ids(ServerSection.SERVERS)).isEmpty();

        assertThat(problems(keys)).containsExactly(
                "jwd.properties:1: server..url = 'http://h:1': expected a server id of letters, digits, '_' or '-'");
    }

    @Test
    void checkLeavesUnreadKeysToTheReaderOfEverySection() throws Exception {
        KeyReader keys = file("read.here=1\nread.elsewhere=2\n");
        keys.raw("read.here");

        keys.check();

        assertThat(problems(keys)).singleElement().asString().startsWith("jwd.properties:2: read.elsewhere");
    }

    @Test
    void restartOnlyKeysAreDeclaredByTheReadThatTakesThem() {
        KeyReader keys = file("live=1\nfrozen=2\n");

        keys.raw("live");
        keys.restartOnly().integer("frozen", 0, 0, 9, "a digit");
        keys.restartOnly().raw("absent.but.declared");

        assertThat(keys.restartKeys()).containsExactlyInAnyOrder("frozen", "absent.but.declared");
    }

    @Test
    void aReferenceToALineThatRefersToAnotherIsReplacedThroughBothAndBothCountAsRead() throws Exception {
        KeyReader keys = file("""
                DIR_ROOT = /usr/sap
                DIR_LOGGING = $(DIR_ROOT)$(DIR_SEP)log
                log = $(DIR_LOGGING)/access_log
                """);

        assertThat(keys.raw("log")).isEqualTo("/usr/sap/log/access_log");
        keys.checkEveryKeyRead();
    }

    @Test
    void referencesNineDeepAreFollowedAndATenthIsTakenForALoop() throws Exception {
        StringBuilder nine = new StringBuilder("x = $(L1)\n");
        for (int i = 1; i < 9; i++) {
            nine.append("L").append(i).append(" = $(L").append(i + 1).append(")\n");
        }
        KeyReader deep = file(nine + "L9 = /end\n");
        assertThat(deep.raw("x")).isEqualTo("/end");
        deep.checkEveryKeyRead();

        KeyReader deeper = file(nine + "L9 = $(L10)\nL10 = /end\n");
        deeper.raw("x");
        // L10 itself is never reached, so it is unread too
        assertThat(problems(deeper)).contains("jwd.properties:1: x = '$(L1)': $(L10) is defined in a loop of"
                + " references: expected values without it");
    }

    @Test
    void aLoopOfReferencesIsNamedAtTheKeyThatUsesIt() {
        KeyReader keys = file("A = $(B)\nB = $(A)\nx = $(A)/log\n");

        assertThat(keys.raw("x")).endsWith("/log");
        assertThat(problems(keys)).singleElement().asString().startsWith("jwd.properties:3: x = '$(A)/log': $(")
                .endsWith(") is defined in a loop of references: expected values without it");
    }

    @Test
    void aKeyGivenTwiceAndAnUnreadableLineAreNamedWithTheirLines() {
        KeyReader keys = file("a=1\n\n# comment\na=2\nb=\\u12\n");
        keys.raw("a");
        keys.raw("b");

        assertThat(problems(keys)).containsExactly(
                "jwd.properties:4: a is given twice (first on line 1): expected each key once",
                "jwd.properties:5: cannot read the line: Malformed \\uxxxx encoding.");
    }

    @Test
    void withoutAFileMessagesNameTheKeyAlone() {
        KeyReader keys = KeyReader.of(Map.of("count", "x"), DIR);

        keys.integer("count", 0, 0, 9, "a digit");
        keys.missing("needed", "a value");

        assertThat(problems(keys)).containsExactly("count = 'x': expected a digit",
                "needed is missing: expected a value");
    }

    @Test
    void aRequestBodysFieldsAreNamedAsFields() {
        KeyReader fields = KeyReader.ofFields(Map.of("load", "5"));

        fields.raw("url");
        fields.raw("type");
        fields.missing("type", "j2ee or abap");
        fields.missingBoth("url", "https_url", "every server", "http://host:port", "https://host:port");

        assertThat(problems(fields)).containsExactly("load = '5': expected a known field: one of type, url",
                "type = '': expected j2ee or abap (required)",
                "url = '': expected http://host:port, or https_url = https://host:port, or both (one is required)");
    }

    @Test
    void aDerivedReadersProblemsAreLocatedAtTheirOriginsLinesInTheFileAndNotRepeated() {
        KeyReader keys = file("""
                shared=x
                scoped.count=zero
                """);
        keys.integer("shared", 0, 1, 10, "1 to 10");
        keys.raw("scoped.count");
        KeyReader derived = KeyReader.of(Map.of("count", "zero", "shared", "x"), DIR);
        derived.integer("count", 0, 1, 10, "1 to 10");
        derived.integer("shared", 0, 1, 10, "1 to 10");
        derived.missing("needed", "a value");

        derived.reportTo(keys, key -> key.equals("count") ? "scoped.count" : key,
                problem -> "scope S: " + problem.replace("count ", "scoped.count "));

        assertThat(problems(keys)).containsExactly("jwd.properties:1: shared = 'x': expected 1 to 10",
                "jwd.properties:2: scope S: scoped.count = 'zero': expected 1 to 10",
                "jwd.properties: scope S: needed is missing: expected a value");
    }

    @Test
    void aDerivedFilesUnreadableLinesAndAnotherFilesProblemsReachTheFileAsTheyAre() {
        KeyReader keys = file("a=1\n");
        keys.raw("a");
        KeyReader derived = KeyReader.parse("b=\\u12\n", "derived.properties", DIR);
        derived.problemInNamedFile("ptab.txt:3: 'X /a': expected P, D or S");

        derived.reportTo(keys, key -> key, problem -> "scope S: " + problem);

        assertThat(problems(keys)).containsExactly(
                "scope S: derived.properties:1: cannot read the line: Malformed \\uxxxx encoding.",
                "scope S: ptab.txt:3: 'X /a': expected P, D or S");
    }

    @Test
    void describesItselfByItsKeysReadsAndProblems() {
        KeyReader keys = file("a=1\nb=x\n");
        keys.integer("b", 0, 0, 9, "a digit");

        assertThat(keys).hasToString("KeyReader[2 keys, 1 read, 1 problems]");
    }
}
