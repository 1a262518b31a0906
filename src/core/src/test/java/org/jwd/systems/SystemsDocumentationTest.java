package org.jwd.systems;

import org.jwd.runtime.ConfigReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.ConfigException;
import org.jwd.routing.PathNormalizer;
import org.junit.jupiter.api.Test;

/** The worked example of the README's "Several systems" means what the text says it means. */
class SystemsDocumentationTest {
    private static final Path README = Path.of(System.getProperty("jwd.projectDir", "..")).resolve("README.md");
    private static final Pattern ROW = Pattern.compile("\\| `(http://[^`]+)` \\| (\\w+) \\| `([^`]+)` \\|");
    private static final Pattern BLOCK = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL);

    /** The README's "Several systems" section: its first properties block is the example. */
    private static String section() throws IOException {
        String text = Files.readString(README);
        int start = text.indexOf("\n## Several systems\n");
        assertThat(start).as("README.md has a section '## Several systems'").isNotNegative();
        int end = text.indexOf("\n## ", start + 1);
        return end < 0 ? text.substring(start) : text.substring(start, end);
    }

    private static List<String> blocks() throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(section());
        while (m.find()) {
            blocks.add(m.group(2));
        }
        return blocks;
    }

    private static Map<String, String> example() throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(blocks().get(0)));
        Map<String, String> map = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
        return map;
    }

    @Test
    void everyRequestOfTheTableGoesToItsSystemForTheReasonGiven() throws Exception {
        SystemSelector selector = new SystemSelector(Systems.parse(example()));
        Matcher row = ROW.matcher(section());
        int rows = 0;
        while (row.find()) {
            URI url = URI.create(row.group(1));
            Selection selection = selector.select(new SelectionRequest("127.0.0.1", url.getPort(), url.getRawAuthority(),
                    false, PathNormalizer.normalize(url.getRawPath())));
            assertThat(selection.system().sid()).as(url.toString()).isEqualTo(row.group(2));
            assertThat(selection.explanation()).as(url.toString()).isEqualTo(row.group(3));
            rows++;
        }
        assertThat(rows).isEqualTo(5);
    }

    @Test
    void eachSystemOfTheExampleIsAValidConfigurationForTodaysParser() throws Exception {
        Map<String, String> example = example();
        for (SystemEntry system : Systems.parse(example).systems()) {
            Properties properties = new Properties();
            properties.putAll(SystemScope.of(example, system).properties());
            StringWriter text = new StringWriter();
            properties.store(text, null);
            assertThat(ConfigReader.parse(text.toString(), system.sid()).servers()).isNotEmpty();
        }
    }

    @Test
    void theOverlapShownIsTheErrorAConflictingEntryGives() throws Exception {
        Map<String, String> conflicting = example();
        conflicting.put("wdisp/system_4", "SID=QAS, SRCURL=/SAP/");
        List<String> problems = List.of();
        try {
            Systems.parse(conflicting);
        } catch (ConfigException e) {
            problems = e.problems();
        }
        assertThat(problems).containsExactly(blocks().get(1).strip());
    }
}
