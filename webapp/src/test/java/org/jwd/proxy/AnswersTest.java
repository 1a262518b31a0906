package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a client reads of jwd's own answers, with and without is/HTTP/show_detailed_errors. */
class AnswersTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "502 | jwd: server a (http://10.0.0.1:50000) failed: connection refused | jwd: 502 Bad Gateway",
            "503 | jwd: logon group PORTAL has no active server                       | jwd: 503 Service Unavailable",
            "504 | jwd: server a (http://10.0.0.1:50000) did not answer within 60s (jwd.request_timeout) | jwd: 504 Gateway Timeout",
            "500 | jwd: the request to server a (http://10.0.0.1:50000) failed with status 500 | jwd: 500 Server Error",
            "403 | jwd: this URL is not permitted (permission table, line 7)         | jwd: this URL is not permitted (permission table, line 7)",
            "413 | jwd: the request body is larger than 100 KB                      | jwd: the request body is larger than 100 KB"})
    void withoutDetailsAServerErrorSaysItsStatusAloneAndAClientErrorItsReason(int status, String details,
                                                                              String withoutDetails) {
        assertThat(Answers.shown(status, details, true)).isEqualTo(details);
        assertThat(Answers.shown(status, details, false)).isEqualTo(withoutDetails);
    }
}
