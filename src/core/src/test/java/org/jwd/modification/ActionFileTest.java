package org.jwd.modification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jwd.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading an action file: every construct jwd does not support, and every malformed line, is refused with the
 * file, the line and its name; nothing is skipped.
 */
class ActionFileTest {
    private static String problem(String rules) {
        try {
            Requests.file(rules);
        } catch (ConfigException e) {
            return String.join(" | ", e.problems());
        }
        throw new AssertionError("no problem with: " + rules);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            RemoveCookie sap-usercontext                     | actions.txt:1: 'RemoveCookie sap-usercontext': the rule RemoveCookie is not supported by jwd
            RegRewriteHeader X-A a b                         | the rule RegRewriteHeader is not supported by jwd
            RewriteUrl /a /b                                 | unknown rule 'RewriteUrl'
            RegRewriteUrl ^/a /b [restart]                   | [restart] is not supported by jwd
            RegRewriteUrl ^/a /b [compound]                  | [compound] is not supported by jwd
            RegRewriteUrl ^/a /b [skip=2]                    | [skip=2] is not supported by jwd
            RegRewriteUrl ^/a /b [last]                      | unknown modifier [last]
            RegRewriteUrl ^/a /b [CODE=301]                  | [CODE=301] does not apply to RegRewriteUrl
            SetHeader X-A 1 [noescape]                       | [noescape] does not apply to SetHeader
            RegForbiddenUrl ^/a - [qsappend]                 | [qsappend] does not apply to RegForbiddenUrl
            RegRedirectUrl ^/a /b [CODE=200]                 | [CODE=200]: expected permanent (301), temp (302), seeother (303) or a number from 300 to 399
            RegRedirectUrl ^/a -                             | RegRedirectUrl needs the URL to redirect to, not '-'
            RegRewriteUrl ^/a                                | expected RegRewriteUrl <pattern> <dest> [modifiers]
            RegRewriteUrl ^/a /b /c                          | a pattern and a substitution have no blanks
            RegRewriteUrl ^/(a /b                            | '^/(a' is no regular expression: Unclosed group
            RegRewriteUrl ^/a /b$1                           | '/b$1' names $1 but the pattern '^/a' has 0 groups
            RegRewriteUrl !^/(a) /b$1                        | a negated pattern matches nothing to name
            SetHeader X-A %{FORMFIELD:x}                     | %{FORMFIELD:x} is not supported: a form field may stand in the request's body
            SetHeader X-A %{SSL_CLIENT_CERT}                 | %{SSL_CLIENT_CERT} is not supported
            SetHeader X-A %{TIME_YEAR}                       | unknown variable %{TIME_YEAR}
            SetHeader X-A %{http_host}                       | unknown variable %{http_host}
            SetHeader X-A %{HTTP_HOST                        | '%{' without its '}'
            SetHeader X-A $1                                 | only a rule's substitution can name a group of its pattern
            SetHeader X-A                                    | SetHeader X-A needs a value
            SetHeader                                        | SetHeader needs a header name: expected SetHeader <name> <value>
            SetHeader X-A %{HEADER:}                         | unknown variable %{HEADER:}
            SetHeader X-A %{HTTP_}                           | unknown variable %{HTTP_}
            RemoveHeader X-A 1                               | RemoveHeader takes a header name and no value
            SetHeader Content-Length 0                       | SetHeader Content-Length is refused: jwd frames the message
            SetHeader ~path /x                               | the pseudo header ~path is not supported by jwd
            SetResponseHeader ~webdisp_target_sid ERP        | the pseudo header ~webdisp_target_sid is not supported by jwd
            SetHeader a:b c                                  | 'a:b' is no header name
            NOP X                                            | NOP takes nothing but modifiers
            SetHeader X-A "open                              | the quote at column 15 is not closed
            """)
    void refusesWhatJwdDoesNotSupportNamingFileLineAndConstruct(String rules, String expected) {
        assertThat(problem(rules)).contains(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            if %{HTTP_HOST} like x\\nNOP                     | actions.txt:1: 'if %{HTTP_HOST} like x': unknown operator 'like'
            if %{HTTP_HOST} regmatch x [XOR]\\nNOP           | unknown link [XOR]: expected [AND] or [OR]
            if %{HTTP_HOST} regmatch\\nNOP                   | expected if <string> <compop> <pattern>
            if a strcmp a [AND]\\nNOP                        | actions.txt:1: 'if a strcmp a [AND]': [AND] is followed by no if line
            if a strcmp a [AND] NOP                          | [AND] and [OR] link to the next if line
            NOP\\nif a strcmp a [OR]                        | actions.txt:2: 'if a strcmp a [OR]': [OR] is followed by no if line
            if a strcmp a                                    | actions.txt:1: 'if a strcmp a': no rule follows this condition
            if a strcmp a\\nif b strcmp b\\nNOP              | an if line without [AND] or [OR] is followed by another if line
            if a strcmp a\\nbegin\\nNOP                      | actions.txt:2: 'begin': this begin has no end
            end                                              | actions.txt:1: 'end': 'end' stands where a rule or an if line is expected
            NOP\\nelse\\nNOP                                 | actions.txt:2: 'else'
            if $1 strcmp a\\nNOP                             | only a rule's substitution can name a group
            """)
    void refusesMalformedConditionsAndBlocksNamingTheirLine(String rules, String expected) {
        assertThat(problem(rules.replace("\\n", "\n"))).contains(expected);
    }

    @Test
    void aRemovalNeedsANameAndNoValue() {
        assertThat(problem("RemoveHeader")).endsWith("RemoveHeader needs a header name: expected RemoveHeader <name>");
    }

    @Test
    void reportsEveryProblemOfAFileAtOnce() {
        String problems = problem("""
                # two problems
                SetHeader X-A %{NOPE}
                SetHeader X-B 1
                RegRewriteUrl ^/( /x
                """);

        assertThat(problems).contains("actions.txt:2:", "actions.txt:4:").doesNotContain("actions.txt:3:");
    }

    @Test
    void ignoresBlankLinesAndCommentsAndKeepsEveryOtherLineForThePage() throws Exception {
        ActionFile file = Requests.file("""

                # a comment
                   # an indented comment
                SetHeader X-A 1
                if a strcmp a
                begin
                NOP
                end
                """);

        assertThat(file.lines()).extracting(Where::line).containsExactly(4, 5, 6, 7, 8);
        assertThat(file.lines().get(0).toString()).isEqualTo("actions.txt:4: SetHeader X-A 1");
    }

    @Test
    void readsRuleNamesModifiersAndOperatorsInAnyCase() throws Exception {
        ActionFile file = Requests.file("""
                IF a STRICMP A [and]
                if b Regmatch b
                setheader X-A 1 [BREAK]
                REGIREWRITEURL ^/a /b [NoEscape,QSAppend]
                """);

        assertThat(file.lines()).hasSize(4);
        assertThat(file.steps()).hasSize(2);
    }

    @Test
    void aMissingFileIsNamedWithItsPath(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        assertThatThrownBy(() -> ActionFileParser.load(dir.resolve("nope.txt"), "nope.txt"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("action file " + dir.resolve("nope.txt").toAbsolutePath() + " does not exist");
    }

    @Test
    void aFileAndItsPartsDescribeThemselvesAsWritten() throws Exception {
        ActionFile file = Requests.file("""
                if %{HTTP_HOST} !regimatch ^ldp [and]
                if %{SERVER_PORT} = 8080
                RegRewriteUrl ^/a(.*) /b$1 [qsappend,noescape,break]
                """);
        Step.Branch branch = (Step.Branch) file.steps()[0];

        assertThat(file).hasToString("ActionFile[actions.txt, 3 lines]");
        assertThat(branch.conditions()[0]).hasToString("if %{HTTP_HOST} !regimatch ^ldp [and]");
        assertThat(branch.conditions()[1]).hasToString("if %{SERVER_PORT} = 8080");
        assertThat(((Step.Rule) branch.then()[0]).action().toString())
                .contains("Modifiers[break noescape qsappend CODE=302]");
        assertThat(ConditionParser.compile("^/a(.*)", false)).hasToString("^/a(.*)");
        assertThat(Tokens.of("SetHeader X-A \"a b\"")).extracting(Object::toString)
                .containsExactly("SetHeader", "X-A", "\"a b\"");
        assertThat(Requests.request("GET", "/a?q=1")).hasToString("GET /a?q=1");
        assertThat(Requests.request("GET", "/a")).hasToString("GET /a");
    }

    @Test
    void aNopWithBreakIsListedAmongTheRulesThatTookEffectAndOneWithoutIsNot() throws Exception {
        Modification stopped = Requests.handler(dir, "NOP [break]\nSetHeader X-A 1").apply(Requests.request("GET", "/"));
        Modification nothing = Requests.handler(dir, "NOP\nSetHeader X-A 1").apply(Requests.request("GET", "/"));

        assertThat(stopped.toString()).contains("actions.txt:1 NOP [break]: no later rule of its file runs ([break])")
                .doesNotContain("X-A");
        assertThat(nothing.toString()).doesNotContain("NOP").contains("X-A");
    }

    @Test
    void aRewriteWithNothingToSubstituteIsListedAmongTheRulesThatTookEffect() throws Exception {
        Modification m = Requests.handler(dir, "RegRewriteUrl ^/old/ - [break]\nSetHeader X-A 1")
                .apply(Requests.request("GET", "/old/x"));

        assertThat(m.fired()).extracting(Fired::toString)
                .containsExactly("actions.txt:1 RegRewriteUrl ^/old/ - [break]: matched, nothing to substitute ('-')");
        assertThat(m.rewritten()).isFalse();
        assertThat(m.requestHeaders()).isEmpty();
    }

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;
}
