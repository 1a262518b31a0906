package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

class BodyBufferTest {
    private final AsyncRequestContent content = new AsyncRequestContent();
    private final AtomicInteger sends = new AtomicInteger();
    private final AtomicInteger reads = new AtomicInteger();
    private final Callback read = Callback.from(reads::incrementAndGet);

    @Test
    void aSmallBodyIsKeptChunkByChunkAndWrittenAsOneOnceWholeBeforeTheRequestGoes() {
        BodyBuffer body = new BodyBuffer(content, 64);
        body.whenReady(sends::incrementAndGet);

        assertThat(body.keep(bytes("abc"), 0, 3, read)).isTrue();
        assertThat(body.keep(bytes("xdefx"), 1, 3, read)).isTrue();
        assertThat(sends).hasValue(0);
        body.complete();

        assertThat(sends).hasValue(1);
        assertThat(reads).hasValue(2);
        assertThat(chunks()).containsExactly("abcdef");
    }

    @Test
    void aBodyLargerThanTheBufferGoesWhenItFillsAndStreamsOnFromThere() {
        BodyBuffer body = new BodyBuffer(content, 4);
        body.whenReady(sends::incrementAndGet);

        assertThat(body.keep(bytes("abc"), 0, 3, read)).isTrue();
        assertThat(body.keep(bytes("def"), 0, 3, read)).as("does not fit: written as usual").isFalse();
        assertThat(sends).hasValue(1);
        assertThat(body.keep(bytes("ghi"), 0, 3, read)).isFalse();
        assertThat(chunks()).containsExactly("abc");
    }

    @Test
    void aSendAskedForAfterTheBodyIsReadyRunsAtOnce() {
        BodyBuffer body = new BodyBuffer(content, 64);
        body.keep(bytes("abc"), 0, 3, read);
        body.complete();

        body.whenReady(sends::incrementAndGet);

        assertThat(sends).hasValue(1);
    }

    @Test
    void aBodyThatFailsBeforeItIsReadySendsNothingEver() {
        BodyBuffer body = new BodyBuffer(content, 64);
        body.whenReady(sends::incrementAndGet);
        body.keep(bytes("abc"), 0, 3, read);

        assertThat(body.failed()).as("the request never went").isTrue();
        body.complete();
        body.whenReady(sends::incrementAndGet);

        assertThat(sends).hasValue(0);
    }

    @Test
    void aBodyThatFailsAfterTheRequestWentIsNotEndedHere() {
        BodyBuffer body = new BodyBuffer(content, 2);
        body.whenReady(sends::incrementAndGet);
        body.keep(bytes("abc"), 0, 3, read);

        assertThat(body.failed()).isFalse();
        assertThat(sends).hasValue(1);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private List<String> chunks() {
        List<String> chunks = new ArrayList<>();
        for (Content.Chunk chunk = content.read(); chunk != null && chunk.hasRemaining(); chunk = content.read()) {
            ByteBuffer b = chunk.getByteBuffer();
            byte[] copy = new byte[b.remaining()];
            b.get(copy);
            chunks.add(new String(copy, StandardCharsets.US_ASCII));
            chunk.release();
        }
        return chunks;
    }
}
