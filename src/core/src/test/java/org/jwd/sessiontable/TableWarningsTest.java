package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.jwd.routing.LogCapture;
import org.junit.jupiter.api.Test;

/** What the session table says at start about where its entries live and how many fit. */
class TableWarningsTest {
    private static final SessionTimeouts TIMEOUTS = SessionTimeouts.both(Duration.ofMinutes(10));
    /** What 1 MB off heap holds. */
    private static final long FITS = (1L << 20) / EhcacheSessionTable.OFF_HEAP_BYTES_PER_ENTRY;

    @Test
    void anOffHeapTierTooSmallForTheEntriesAllowedIsWarnedAboutWithASizeThatHoldsThem() {
        try (LogCapture log = new LogCapture(EhcacheSessionTable.class)) {
            TableWarnings.sizes(TIMEOUTS, FITS, 1_000, 1, FITS);
            assertThat(log.text()).contains("Session table off heap: 1 MB, idle timeout " + TIMEOUTS + ", at most "
                    + FITS + " entries").doesNotContain("WARN");

            TableWarnings.sizes(TIMEOUTS, 100_000, 1_000, 1, 100_000);
            assertThat(log.text()).contains("Session table: 1 MB off heap hold about " + FITS + " entries, fewer than"
                    + " the 100000 allowed (wdisp/HTTP/max_session_tab_entries); idle sessions will be evicted."
                    + " SessionTable.offheap_MB of about " + ((100_000 * EhcacheSessionTable.OFF_HEAP_BYTES_PER_ENTRY
                    >> 20) + 1) + " avoids that");
        }
    }

    @Test
    void onHeapItSaysWhenTheHeapEntriesHoldFewerThanTheEntriesAllowed() {
        try (LogCapture log = new LogCapture(EhcacheSessionTable.class)) {
            TableWarnings.sizes(TIMEOUTS, 1_000, 1_000, 0, 1_000);
            assertThat(log.text()).contains("Session table on heap: idle timeout " + TIMEOUTS + ", at most 1000 entries")
                    .doesNotContain("off heap", "rather than");

            TableWarnings.sizes(TIMEOUTS, 1_000, 10, 0, 10);
            assertThat(log.text()).contains("Session table holds 10 entries (SessionTable.heap_entries) rather than"
                    + " 1000 (wdisp/HTTP/max_session_tab_entries): it has no off-heap tier");
        }
    }
}
