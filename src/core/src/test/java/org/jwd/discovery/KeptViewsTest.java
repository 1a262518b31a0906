package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kept file: its format's version first, SAP's answers as written, read back whole; a damaged one refused. */
class KeptViewsTest {
    @TempDir
    Path dir;

    @Test
    void theAnswersComeBackAsTheyWereKeptUnderAVersionLine() throws IOException {
        KeptViews kept = new KeptViews(dir.resolve("discovery-view.txt"));
        Map<String, Answers> answers = new LinkedHashMap<>();
        answers.put("ERP", new Answers(SapExamples.SERVER_LIST, SapExamples.URL_PREFIXES, SapExamples.GROUPS, null,
                SapExamples.JAVA_GROUPS, "http://ms:8101/msgserver/text/logon?version=1.2", "http://ls0042:8000", 7));
        answers.put("-", new Answers("version 1.2\n", null, null, null, null, "file:/x", null, 8));

        kept.store(answers);

        assertThat(Files.readString(kept.file())).startsWith("jwd discovery view 1\nsystem ERP\nat 7\n"
                + "source http://ms:8101/msgserver/text/logon?version=1.2\nicf http://ls0042:8000\n"
                + "list server_list 16\nversion 1.2\nls0042_ERP_00\nDIAG\tls0042.example.com\t3200\tLB=8\n");
        assertThat(kept.load()).isEqualTo(answers);
    }

    @Test
    void aDamagedFileIsRefusedNamingItAndWhy() throws IOException {
        KeptViews kept = new KeptViews(dir.resolve("discovery-view.txt"));
        Files.writeString(kept.file(), "jwd discovery view 1\nsystem -\nat soon\n");

        assertThatThrownBy(kept::load).isInstanceOf(IOException.class)
                .hasMessageContaining(kept.file().toString()).hasMessageContaining("is damaged");
    }

    @Test
    void aFileOfAnotherKindIsNotRead() throws IOException {
        KeptViews kept = new KeptViews(dir.resolve("discovery-view.txt"));
        Files.writeString(kept.file(), "server.a.url=http://x:1\n");

        assertThatThrownBy(kept::load).hasMessageContaining("is not a discovery view kept by jwd");
    }
}
