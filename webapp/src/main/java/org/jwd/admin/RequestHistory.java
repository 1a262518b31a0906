package org.jwd.admin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import org.jwd.topology.Server;

/**
 * The requests each server has served, sampled at a fixed interval over the last minutes: what the admin page's
 * chart draws (requests per second per server, from the differences between samples). A bounded ring of samples;
 * synchronized (guarded by this), as it is touched every few seconds.
 */
public final class RequestHistory {
    /** @param served per server id, its requests served at {@code time} */
    private record Sample(long time, Map<String, Long> served) {
    }

    private final int maxSamples;
    private final long intervalMillis;
    private final LongSupplier clockMillis;
    private final Deque<Sample> samples = new ArrayDeque<>(); // guarded by this

    public RequestHistory(int maxSamples, long intervalMillis, LongSupplier clockMillis) {
        this.maxSamples = maxSamples;
        this.intervalMillis = intervalMillis;
        this.clockMillis = clockMillis;
    }

    public long intervalMillis() {
        return intervalMillis;
    }

    /** Takes a sample of {@code servers} now. */
    public synchronized void sample(Collection<Server> servers) {
        samples.addLast(new Sample(clockMillis.getAsLong(), served(servers)));
        while (samples.size() > maxSamples) {
            samples.removeFirst();
        }
    }

    private static Map<String, Long> served(Collection<Server> servers) {
        Map<String, Long> served = new LinkedHashMap<>();
        for (Server s : servers) {
            served.put(s.id(), s.served());
        }
        return served;
    }

    /** The samples, oldest first, and a last one taken now from {@code servers}. */
    public synchronized HistoryView view(Collection<Server> servers) {
        List<HistoryView.Sample> list = new ArrayList<>();
        for (Sample s : samples) {
            list.add(new HistoryView.Sample(s.time(), s.served()));
        }
        list.add(new HistoryView.Sample(clockMillis.getAsLong(), served(servers)));
        return new HistoryView(intervalMillis, list);
    }
}
