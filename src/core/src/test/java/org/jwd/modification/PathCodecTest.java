package org.jwd.modification;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the rules read of a path (decoded) and what a rewrite writes back (encoded), at their edges. */
class PathCodecTest {
    @ParameterizedTest(name = "{0} reads {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            /a/b          | /a/b
            %41b          | Ab
            /a%2Fb%20c    | /a/b c
            /a%09         | `/a\t`
            /caf%C3%A9    | /café
            /a%4          | /a%4
            /a%           | /a%
            /a%zz%41      | /a%zzA
            """)
    void decodesEveryPercentEscapeAndKeepsWhatIsNone(String raw, String decoded) {
        assertThat(PathCodec.decode(raw)).isEqualTo(decoded);
    }

    @ParameterizedTest(name = "{0} writes {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            /a/b;x=1      | /a/b;x=1
            ` x`          | %20x
            é/ü x         | %C3%A9/%C3%BC%20x
            `a\u0080`     | a%C2%80
            `\u0080`      | %C2%80
            100%          | 100%25
            """)
    void encodesWhatAPathCannotHoldAsUtf8(String decoded, String encoded) {
        assertThat(PathCodec.encodePath(decoded)).isEqualTo(encoded);
    }
}
