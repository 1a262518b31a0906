package org.jwd.demo;

/**
 * How slowly a server process answers: every answer waits {@link #millis()} first, an iView's {@link #iviewMillis()}
 * more (long enough for a page's iViews to be in flight together). A test may change both while it runs.
 */
final class Delays {
    private volatile long millis;
    private volatile long iviewMillis;

    Delays(long millis, long iviewMillis) {
        setMillis(millis);
        setIviewMillis(iviewMillis);
    }

    long millis() {
        return millis;
    }

    void setMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("delay must be >= 0");
        }
        this.millis = millis;
    }

    long iviewMillis() {
        return iviewMillis;
    }

    void setIviewMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("iView delay must be >= 0");
        }
        this.iviewMillis = millis;
    }

    /** Waits as long as an answer must; false if interrupted (the server is stopping), and nothing is answered. */
    boolean await(boolean iview) {
        return sleep(millis) && (!iview || sleep(iviewMillis));
    }

    private static boolean sleep(long millis) {
        if (millis <= 0) {
            return true;
        }
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
