package org.jwd.demo;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** What a server process has answered, in all and per path, and what it is answering now: what tests count on. */
final class Traffic {
    private final LongAdder total = new LongAdder();
    private final ConcurrentMap<String, LongAdder> byPath = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    void began() {
        inFlight.incrementAndGet();
    }

    void ended() {
        inFlight.decrementAndGet();
    }

    /** Counts an answer to {@code path} (without its path parameters), before it is written. */
    void answering(String path) {
        total.increment();
        byPath.computeIfAbsent(path, k -> new LongAdder()).increment();
    }

    long total() {
        return total.sum();
    }

    long answered(String path) {
        LongAdder a = byPath.get(path);
        return a == null ? 0 : a.sum();
    }

    Map<String, Long> byPath() {
        Map<String, Long> copy = new TreeMap<>();
        byPath.forEach((k, v) -> copy.put(k, v.sum()));
        return Collections.unmodifiableMap(copy);
    }

    int inFlight() {
        return inFlight.get();
    }

    void reset() {
        total.reset();
        byPath.clear();
    }
}
