package org.jwd.modification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.modification.Requests.request;

import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each action, condition, operator, modifier and variable of SAP's action files, one row each, with the SAP page
 * (help.sap.com, SAP NetWeaver 7.3 unless said otherwise) the row follows. The outcome is written as
 * {@link Requests#outcome}: the status of jwd's own answer, or where the request goes on with its changed headers.
 */
class ModificationRulesTest {
    private static final String ACTION_FILE = "Defining HTTP Request Modifications — Creating and Maintaining an"
            + " Action File";
    private static final String HEADERS = "Manipulating Header Fields";
    private static final String HEADERS_74 = "Deleting, Adding, and Enhancing HTTP Header Fields (7.4)";
    private static final String URLS = "Manipulating URLs";
    private static final String REWRITE = "Rewriting URLs";
    private static final String REWRITE_74 = "Rewriting URLs (7.4)";
    private static final String REDIRECT = "Defining the Request Redirect";
    private static final String FILTER = "Filtering Requests";
    private static final String CONDITIONS = "Defining Conditions";
    private static final String LINKING = "Linking Modification Actions to Conditions (7.40)";
    private static final String VARIABLES = "Using Variables in HTTP Request Modifications";
    private static final String NOP = "Modification of HTTP Requests: the nop action";
    private static final String MULTIPLE = "SAP Web Dispatcher for Multiple Systems";

    @TempDir
    Path dir;

    /** A row: the page it follows, the action file, the request and what becomes of it. */
    record Row(String page, String rules, RequestView request, String expected) {
        @Override
        public String toString() {
            return "[" + page + "] " + rules.strip().replace('\n', ';') + " | " + request + " => " + expected;
        }
    }

    private static Row row(String page, String rules, RequestView request, String expected) {
        return new Row(page, rules, request, expected);
    }

    private static RequestView get(String target, String... headers) {
        return request("GET", target, headers);
    }

    static Stream<Row> actions() {
        return Stream.of(
                row(HEADERS, "SetHeader clientProtocol http", get("/a"), "-> /a clientProtocol=http"),
                row(HEADERS, "SetHeader X-A new", get("/a", "X-A: old"), "-> /a X-A=new"),
                row(HEADERS, "SetHeaderIfEmpty X-A new", get("/a"), "-> /a X-A=new"),
                row(HEADERS, "SetHeaderIfEmpty X-A new", get("/a", "X-A: old"), "-> /a X-A=old"),
                row(HEADERS, "AppendHeader X-A b", get("/a", "X-A: a"), "-> /a X-A=a, b"),
                row(HEADERS, "AppendHeader X-A b", get("/a"), "-> /a X-A=b"),
                row(HEADERS, "RemoveHeader Referer", get("/a", "Referer: http://x/"), "-> /a -Referer"),
                row(HEADERS, "SetHeader x-a 1\nAppendHeader X-A 2\nRemoveHeader X-B", get("/a", "X-B: b"),
                        "-> /a X-A=1, 2 -X-B"),
                row(HEADERS_74, "SetResponseHeader X-Frame-Options DENY", get("/a"),
                        "-> /a response:set X-Frame-Options=DENY"),
                row(HEADERS_74, "SetResponseHeaderIfEmpty Cache-Control no-store", get("/a"),
                        "-> /a response:set_if_empty Cache-Control=no-store"),
                row(HEADERS_74, "AppendResponseHeader Vary Accept", get("/a"), "-> /a response:append Vary=Accept"),
                row(HEADERS_74, "RemoveResponseHeader Server", get("/a"), "-> /a response:remove Server"),
                row(REWRITE, "RegRewriteUrl ^/$ /index.html", get("/"), "-> /index.html"),
                row(REWRITE, "RegRewriteUrl ^/$ /index.html", get("/x"), "-> /x"),
                row(REWRITE, "RegRewriteUrl ^/Ping(.*) /sap/public/icman/ping$1", get("/ping/x"), "-> /ping/x"),
                row(REWRITE, "RegIRewriteUrl ^/Ping(.*) /sap/public/icman/ping$1", get("/PING/x"),
                        "-> /sap/public/icman/ping/x"),
                row(URLS, "RegRewriteUrl \"^/a b/(.*)\" /c/$1", get("/a%20b/x%C3%A9"), "-> /c/x%C3%A9"),
                row(REWRITE_74, "RegRewriteRawUrl ^/a%20b/(.*) /c/$1", get("/a%20b/x"), "-> /c/x"),
                row(REWRITE_74, "RegRewriteRawUrl \"^/a b/(.*)\" /c/$1", get("/a%20b/x"), "-> /a%20b/x"),
                row(REWRITE_74, "RegIRewriteRawUrl ^/A%20B/(.*) /c/$1", get("/a%20b/x"), "-> /c/x"),
                row(REWRITE, "RegRewriteUrl ^/old/(.*) /new/$1", get("/old/x?a=1"), "-> /new/x?a=1"),
                row(REWRITE, "RegRewriteUrl ^/old/(.*) /new/$1?b=2", get("/old/x?a=1"), "-> /new/x?b=2"),
                row(REWRITE, "RegRewriteUrl ^/old/(.*) /new/$1? ", get("/old/x?a=1"), "-> /new/x"),
                row(URLS, "RegRewriteUrl ^/old/ -", get("/old/x"), "-> /old/x"),
                row(REDIRECT, "RegIRedirectUrl ^/ping(.*) /sap/public/icman/ping$1", get("/Ping/x"),
                        "302 /sap/public/icman/ping/x"),
                row(REDIRECT, "RegRedirectUrl ^/ping(.*) /sap/public/icman/ping$1", get("/Ping/x"), "-> /Ping/x"),
                row(REDIRECT, "RegRedirectUrl ^/$ http://server.domain:8080/default.html [CODE=permanent]", get("/"),
                        "301 http://server.domain:8080/default.html"),
                row(REDIRECT, "RegRedirectUrl ^/index.html(.*) /sap/bc/bsp/sap/ztest/index.html [CODE=temp]",
                        get("/index.html?x=1"), "302 /sap/bc/bsp/sap/ztest/index.html?x=1"),
                row(FILTER, "RegForbiddenUrl ^/ping(.*) -", get("/ping/x"), "403"),
                row(FILTER, "RegForbiddenUrl ^/ping(.*) -", get("/PING/x"), "-> /PING/x"),
                row(FILTER, "RegIForbiddenUrl ^/ping(.*)", get("/PING/x"), "403"),
                row(FILTER, "RegGoneUrl ^/oldpath(.*) -", get("/oldpath/x"), "410"),
                row(FILTER, "RegIGoneUrl ^/oldpath(.*) -", get("/OldPath/x"), "410"),
                row(URLS, "RegIForbiddenUrl !^/sap/(.*) -", get("/irj/portal"), "403"),
                row(URLS, "RegIForbiddenUrl !^/sap/(.*) -", get("/sap/bc/ping"), "-> /sap/bc/ping"),
                row(NOP, "NOP\nSetHeader X-A 1", get("/a"), "-> /a X-A=1"),
                row(NOP, "if %{SERVER_ADDR} !stricmp 127.0.0.1\nNOP [break]\nRegForbiddenUrl ^/(.*) -",
                        get("/a"), "-> /a"));
    }

    static Stream<Row> conditions() {
        return Stream.of(
                row(CONDITIONS, "if %{HTTP_HOST} regmatch ^ldp\nSetHeader X-A 1", get("/", "Host: ldp1:80"),
                        "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_HOST} regmatch ^ldp\nSetHeader X-A 1", get("/", "Host: LDP1:80"), "-> /"),
                row(CONDITIONS, "if %{HTTP_HOST} regimatch ^ldp\nSetHeader X-A 1", get("/", "Host: LDP1:80"),
                        "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_HOST} !regimatch ^ldp\nSetHeader X-A 1", get("/", "Host: LDP1:80"),
                        "-> /"),
                row(CONDITIONS, "if %{HTTP_HOST} !regmatch ^ldp\nSetHeader X-A 1", get("/", "Host: web:80"),
                        "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_HOST} regimatch *.wdf.sap.com\nSetHeader X-A 1",
                        get("/", "Host: ldp.wdf.sap.com"), "-> / X-A=1"),
                row(CONDITIONS, "if %{REQUEST_METHOD} strcmp GET\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{REQUEST_METHOD} strcmp get\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{REQUEST_METHOD} stricmp \"get\"\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{REQUEST_METHOD} !strcmp GET\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{REQUEST_METHOD} !stricmp get\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{SERVER_PORT} = 8080\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{SERVER_PORT} = 08080\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{SERVER_PORT} != 80\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{SERVER_PORT} < 10000\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{SERVER_PORT} > 10000\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{SERVER_PORT} <= 8080\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{SERVER_PORT} >= 8081\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{SERVER_PORT} < 8080\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{SERVER_PORT} > 8080\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{SERVER_PORT} >= 8080\nSetHeader X-A 1", get("/"), "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_X_V} < 100000000000000000\nSetHeader X-A 1", get("/", "X-V: 99"),
                        "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_X_V} > -1\nSetHeader X-A 1", get("/"), "-> /"),
                row(CONDITIONS, "if %{HTTP_X_V} < b\nSetHeader X-A 1", get("/", "X-V: a"), "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_HOST} regimatch ^ldp [and]\nif %{SERVER_PORT} = 8080\nSetHeader X-A 1",
                        get("/", "Host: ldp"), "-> / X-A=1"),
                row(CONDITIONS, "if %{HTTP_HOST} regimatch ^ldp [AND]\nif %{SERVER_PORT} = 80\nSetHeader X-A 1",
                        get("/", "Host: ldp"), "-> /"),
                row(CONDITIONS, "if %{HTTP_HOST} regimatch ^ldp [OR]\nif %{SERVER_PORT} = 80\nSetHeader X-A 1",
                        get("/", "Host: ldp"), "-> / X-A=1"),
                // equal precedence, left to right: (true OR false) AND false
                row(CONDITIONS, "if a strcmp a [OR]\nif a strcmp b [AND]\nif a strcmp c\nSetHeader X-A 1", get("/"),
                        "-> /"),
                // (false AND x) OR true
                row(CONDITIONS, "if a strcmp b [AND]\nif a strcmp a [OR]\nif a strcmp a\nSetHeader X-A 1", get("/"),
                        "-> / X-A=1"),
                row(CONDITIONS, "if a strcmp b\nSetHeader X-A 1\nSetHeader X-B 2", get("/"), "-> / X-B=2"),
                row(LINKING, "if a strcmp a\nbegin\nSetHeader X-A 1\nSetHeader X-B 2\nend\nSetHeader X-C 3",
                        get("/"), "-> / X-A=1 X-B=2 X-C=3"),
                row(LINKING, "if a strcmp b\nbegin\nSetHeader X-A 1\nSetHeader X-B 2\nend\nSetHeader X-C 3",
                        get("/"), "-> / X-C=3"),
                row(LINKING, "if a strcmp b\nSetHeader X-A 1\nelse\nSetHeader X-B 2", get("/"), "-> / X-B=2"),
                row(LINKING, "if a strcmp a\nSetHeader X-A 1\nelse\nSetHeader X-B 2", get("/"), "-> / X-A=1"),
                row(LINKING, "if a strcmp b\nbegin\nSetHeader X-A 1\nend\nelse\nbegin\nSetHeader X-B 2\n"
                        + "SetHeader X-C 3\nend", get("/"), "-> / X-B=2 X-C=3"),
                row(LINKING, "if a strcmp a\nbegin\nif b strcmp b\nSetHeader X-A 1\nend", get("/"), "-> / X-A=1"),
                row(LINKING, "if a strcmp a\nbegin\nSetHeader X-A 1 [break]\nend\nSetHeader X-B 2", get("/"),
                        "-> / X-A=1"),
                // a [break] in a block of a block ends the whole file, not only the blocks around it
                row(LINKING, "if a strcmp a\nbegin\nif b strcmp b\nbegin\nSetHeader X-A 1 [break]\nend\n"
                        + "SetHeader X-B 2\nend\nSetHeader X-C 3", get("/"), "-> / X-A=1"),
                row(LINKING, "if a strcmp a begin\nSetHeader X-A 1\nSetHeader X-B 2\nend", get("/"),
                        "-> / X-A=1 X-B=2"),
                row(LINKING, "if a strcmp b begin\nSetHeader X-A 1\nend\nelse begin\nSetHeader X-B 2\n"
                        + "SetHeader X-C 3\nend", get("/"), "-> / X-B=2 X-C=3"),
                row(LINKING, "if %{PATH} regimatch *;o=SYS* SetHeader x-sap-webdisp-target-sid FOO [break]\n"
                        + "if %{PATH} regimatch *;o=OTHER* SetHeader x-sap-webdisp-target-sid BAR [break]",
                        get("/sap/opu/odata/MY_SERVICE;o=OTHER/x"),
                        "-> /sap/opu/odata/MY_SERVICE;o=OTHER/x x-sap-webdisp-target-sid=BAR system=BAR"));
    }

    static Stream<Row> modifiers() {
        return Stream.of(
                row(ACTION_FILE, "RegIRewriteUrl ^/dtcsld(.*) /sld$1\nRegForbiddenUrl /(.*) -", get("/dtcsld/x"),
                        "403"),
                row(ACTION_FILE, "RegIRewriteURL ^/dtcsld(.*) /sld$1 [break]\nRegForbiddenUrl /(.*) -",
                        get("/dtcsld/x"), "-> /sld/x"),
                row(ACTION_FILE, "RegIRewriteURL ^/dtcsld(.*) /sld$1 [break]\nRegForbiddenUrl /(.*) -",
                        get("/other"), "403"),
                row(HEADERS, "SetHeader X-A 1 [break]\nSetHeader X-B 2", get("/"), "-> / X-A=1"),
                row(HEADERS, "SetHeader X-A a]", get("/"), "-> / X-A=a]"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b$1?x=1 [qsappend,qsreplace]", get("/a/y?q=2"), "-> /b/y?x=1"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b$1?x=1 [qsreplace,qsappend]", get("/a/y?q=2"),
                        "-> /b/y?x=1&q=2"),
                row(REDIRECT, "RegRedirectUrl ^/a$ /b [CODE=399]", get("/a"), "399 /b"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) \"/b c$1\"", get("/a/x"), "-> /b%20c/x"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b%20c$1 [noescape]", get("/a/x"), "-> /b%20c/x"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b%20c$1", get("/a/x"), "-> /b%2520c/x"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b$1?x=1 [qsappend]", get("/a/y?q=2"), "-> /b/y?x=1&q=2"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b$1?x=1 [qsreplace]", get("/a/y?q=2"), "-> /b/y?x=1"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b$1?x=1 [qsappend, break]\nSetHeader X-A 1", get("/a/y?q=2"),
                        "-> /b/y?x=1&q=2"),
                row(REWRITE, "RegRewriteUrl ^/a(.*) /b$1?x=1 [qsappend] [break]\nSetHeader X-A 1", get("/a/y"),
                        "-> /b/y?x=1"),
                row(REDIRECT, "RegRedirectUrl ^/a$ /b [CODE=permanent]", get("/a"), "301 /b"),
                row(REDIRECT, "RegRedirectUrl ^/a$ /b [CODE=temp]", get("/a"), "302 /b"),
                row(REDIRECT, "RegRedirectUrl ^/a$ /b [CODE=seeother]", get("/a"), "303 /b"),
                row(REDIRECT, "RegRedirectUrl ^/a$ /b [code=307]", get("/a"), "307 /b"),
                row(REDIRECT, "RegRedirectUrl ^/a$ /b", get("/a"), "302 /b"),
                // a location of a query alone: the client keeps its path and takes the new query
                row(REDIRECT, "RegRedirectUrl ^/a$ ?b=2", get("/a?q=1"), "302 ?b=2"),
                row(REDIRECT, "RegRedirectUrl ^/a$ ?b=2 [qsappend]", get("/a?q=1"), "302 ?b=2&q=1"));
    }

    static Stream<Row> variables() {
        return Stream.of(
                row(VARIABLES, "SetHeader clientProtocol %{SERVER_PROTOCOL}", get("/"), "-> / clientProtocol=http"),
                row(VARIABLES, "SetHeader X-V %{REQUEST_METHOD}:%{SERVER_PORT}", get("/"), "-> / X-V=GET:8080"),
                row(VARIABLES, "SetHeader X-V 5$", get("/"), "-> / X-V=5$"),
                row(VARIABLES, "SetHeader clientProtocol %{SERVER_PROTOCOL}", request("GET", "/", true),
                        "-> / clientProtocol=https"),
                row(VARIABLES, "SetHeader X-SAP-WEBDISP-AP %{SERVER_ACCESS_POINTS}", get("/"),
                        "-> / X-SAP-WEBDISP-AP=http:8080,https:8443"),
                row(VARIABLES, "SetHeader X-M %{REQUEST_METHOD}", request("DELETE", "/"), "-> / X-M=DELETE"),
                row(VARIABLES, "SetHeader X-P %{PATH}", get("/a%20b/./c;x=1"), "-> /a%20b/./c;x=1 X-P=/a b/./c;x=1"),
                row(VARIABLES, "SetHeader X-P %{PATH_TRANSLATED}", get("/a%20b/./c;x=1"),
                        "-> /a%20b/./c;x=1 X-P=/a b/c"),
                row(VARIABLES, "SetHeader X-Q %{QUERY_STRING}", get("/?a=1&b=2"), "-> /?a=1&b=2 X-Q=a=1&b=2"),
                row(VARIABLES, "SetHeader X-Q <%{QUERY_STRING}>", get("/"), "-> / X-Q=<>"),
                row(VARIABLES, "SetHeader X-S %{SERVER_ADDR}:%{SERVER_PORT}", get("/"), "-> / X-S=192.0.2.1:8080"),
                row(VARIABLES, "SetHeader X-C %{REMOTE_ADDR} %{REMOTE_HOST} %{REMOTE_PORT}", get("/"),
                        "-> / X-C=10.0.0.7 10.0.0.7 50123"),
                row(VARIABLES, "SetHeader X-H %{HTTP_HOST}", get("/", "Host: ldp1.wdf.sap.com:8080"),
                        "-> / X-H=ldp1.wdf.sap.com:8080"),
                row(VARIABLES, "SetHeader X-H %{HTTP_HOST_SHORT}|%{HTTP_HOST_DOMAIN}",
                        get("/", "Host: ldp1.wdf.sap.com:8080"), "-> / X-H=ldp1|wdf.sap.com"),
                row(VARIABLES, "SetHeader X-H %{HTTP_HOST_SHORT}|%{HTTP_HOST_DOMAIN}", get("/", "Host: ldp1"),
                        "-> / X-H=ldp1|"),
                row(VARIABLES, "SetHeader X-H %{HTTP_HOST_SHORT}|%{HTTP_HOST_DOMAIN}", get("/", "Host: :8080"),
                        "-> / X-H=|"),
                row(VARIABLES, "SetHeader X-H %{HTTP_HOST_SHORT}|%{HTTP_HOST_DOMAIN}", get("/", "Host: .example.com"),
                        "-> / X-H=|example.com"),
                row(VARIABLES, "SetHeader X-U %{HTTP_USER_AGENT}", get("/", "User-Agent: curl/8"), "-> / X-U=curl/8"),
                row(VARIABLES, "SetHeader X-U %{HTTP_REFERER}", get("/", "Referer: http://a/"),
                        "-> / X-U=http://a/"),
                row(VARIABLES, "SetHeader X-U %{HTTP_COOKIE}", get("/", "Cookie: a=1"), "-> / X-U=a=1"),
                row(VARIABLES, "SetHeader X-U %{HTTP_FORWARDED}", get("/", "Forwarded: for=1.2.3.4"),
                        "-> / X-U=for=1.2.3.4"),
                row(VARIABLES, "SetHeader X-U %{HTTP_CONTENT_LENGTH}/%{HTTP_CONTENT_TYPE}",
                        get("/", "Content-Length: 3", "Content-Type: text/plain"), "-> / X-U=3/text/plain"),
                row(VARIABLES, "SetHeader X-U %{HTTP_ACCEPT}|%{HTTP_ACCEPT_CHARSET}|%{HTTP_ACCEPT_ENCODING}"
                        + "|%{HTTP_ACCEPT_LANGUAGE}|%{HTTP_VIA}", get("/", "Accept: */*", "Accept-Charset: utf-8",
                        "Accept-Encoding: gzip", "Accept-Language: de", "Via: 1.1 p"),
                        "-> / X-U=*/*|utf-8|gzip|de|1.1 p"),
                row(VARIABLES, "SetHeader X-U %{HEADER:x-sap-client}", get("/", "X-SAP-Client: 100"), "-> / X-U=100"),
                row(VARIABLES, "SetHeader X-U %{HTTP_X_SAP_CLIENT}", get("/", "X-SAP-Client: 100"), "-> / X-U=100"),
                row(VARIABLES, "SetHeader X-A 1\nSetHeader X-B %{HTTP_X_A}+", get("/"), "-> / X-A=1 X-B=1+"),
                row(VARIABLES, "RegRewriteUrl ^/h$ /host/%{HTTP_HOST_SHORT}", get("/h", "Host: ldp7.x"),
                        "-> /host/ldp7"),
                row(MULTIPLE, "SetHeader ~webdisp_target_sid ERP", get("/"), "-> / system=ERP"),
                row(MULTIPLE, "SetHeader x-sap-webdisp-target-sid ERP", get("/"),
                        "-> / x-sap-webdisp-target-sid=ERP system=ERP"));
    }

    private void check(Row row) throws Exception {
        ModificationHandlers handlers = Requests.handler(dir, row.rules());

        Modification m = handlers.apply(row.request());

        assertThat(Requests.outcome(m, row.request())).as(row.page()).isEqualTo(row.expected());
    }

    @ParameterizedTest
    @MethodSource("actions")
    void eachActionDoesWhatSapSays(Row row) throws Exception {
        check(row);
    }

    @ParameterizedTest
    @MethodSource("conditions")
    void eachConditionAndOperatorGuardsItsRulesAsSapSays(Row row) throws Exception {
        check(row);
    }

    @ParameterizedTest
    @MethodSource("modifiers")
    void eachModifierDoesWhatSapSays(Row row) throws Exception {
        check(row);
    }

    @ParameterizedTest
    @MethodSource("variables")
    void eachVariableReadsWhatSapSays(Row row) throws Exception {
        check(row);
    }
}
