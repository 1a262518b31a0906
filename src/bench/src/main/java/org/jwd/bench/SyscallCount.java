package org.jwd.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code src/bench/run}'s {@code syscalls.tsv}: the system calls a proxy's processes made while wrk (or
 * h2load) sent it {@code requests} requests, as {@code perf stat -x,} counted them on the kernel's tracepoints, in
 * the kinds that tell proxies apart: socket reads and writes (which a request needs: one of each on either side),
 * changes of epoll interest, waits for events, futex calls (one thread waking or waiting for another) and the rest.
 * On a virtual machine where a system call is dear, their number per request is much of a proxy's CPU per request,
 * and unlike a rate it barely moves from one run to the next.
 *
 * @param target          the proxy
 * @param requests        the requests the load generator completed meanwhile
 * @param total           every system call ({@code raw_syscalls:sys_enter})
 * @param reads           read, readv, recvfrom, recvmsg
 * @param writes          write, writev, sendto, sendmsg
 * @param epollCtl        epoll_ctl
 * @param epollWait       epoll_wait, epoll_pwait
 * @param futex           futex
 * @param contextSwitches the processes' context switches
 */
public record SyscallCount(String target, long requests, long total, long reads, long writes, long epollCtl,
                           long epollWait, long futex, long contextSwitches) {
    public static final String HEADER =
            "target\trequests\ttotal\treads\twrites\tepoll_ctl\tepoll_wait\tfutex\tcontext_switches";

    /** The events src/bench/run asks perf for, comma-separated; {@link #of} sorts each into its kind. */
    public static final String PERF_EVENTS = String.join(",", "context-switches", "raw_syscalls:sys_enter",
            "syscalls:sys_enter_read", "syscalls:sys_enter_readv", "syscalls:sys_enter_recvfrom",
            "syscalls:sys_enter_recvmsg", "syscalls:sys_enter_write", "syscalls:sys_enter_writev",
            "syscalls:sys_enter_sendto", "syscalls:sys_enter_sendmsg", "syscalls:sys_enter_epoll_ctl",
            "syscalls:sys_enter_epoll_wait", "syscalls:sys_enter_epoll_pwait", "syscalls:sys_enter_futex");

    private static final Set<String> READS = Set.of("read", "readv", "recvfrom", "recvmsg");
    private static final Set<String> WRITES = Set.of("write", "writev", "sendto", "sendmsg");
    private static final Set<String> EPOLL_WAITS = Set.of("epoll_wait", "epoll_pwait");
    /** A line of {@code perf stat -x,}: the count, the unit (empty), the event, then run time and share. */
    private static final Pattern PERF_LINE = Pattern.compile("^\\s*([^,]*),[^,]*,([^,]+),.*$");

    /**
     * Sorts perf's counts into their kinds.
     *
     * @param perfOutput what {@code perf stat -x, -e PERF_EVENTS} wrote (its comment and blank lines are passed over)
     * @throws IllegalArgumentException when an event of {@link #PERF_EVENTS} is missing or was not counted
     *                                  (perf's {@code <not counted>}, {@code <not supported>}), naming it
     */
    static SyscallCount of(String target, long requests, String perfOutput) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String line : perfOutput.split("\n")) {
            Matcher m = PERF_LINE.matcher(line);
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            String event = m.group(2).trim();
            try {
                counts.put(event, Long.parseLong(m.group(1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("perf did not count " + event + " for " + target + ": '"
                        + m.group(1).trim() + "' (tracepoints need root and the kernel's tracefs)");
            }
        }
        long reads = 0;
        long writes = 0;
        long epollWait = 0;
        for (String event : PERF_EVENTS.split(",")) {
            if (!counts.containsKey(event)) {
                throw new IllegalArgumentException("perf's output for " + target + " has no count of " + event);
            }
            String call = event.startsWith("syscalls:sys_enter_") ? event.substring("syscalls:sys_enter_".length())
                    : "";
            long n = counts.get(event);
            reads += READS.contains(call) ? n : 0;
            writes += WRITES.contains(call) ? n : 0;
            epollWait += EPOLL_WAITS.contains(call) ? n : 0;
        }
        return new SyscallCount(target, requests, counts.get("raw_syscalls:sys_enter"), reads, writes,
                counts.get("syscalls:sys_enter_epoll_ctl"), epollWait, counts.get("syscalls:sys_enter_futex"),
                counts.get("context-switches"));
    }

    String toTsv() {
        return String.join("\t", target, Long.toString(requests), Long.toString(total), Long.toString(reads),
                Long.toString(writes), Long.toString(epollCtl), Long.toString(epollWait), Long.toString(futex),
                Long.toString(contextSwitches));
    }

    /** @throws IllegalArgumentException naming the line when it is not one of syscalls.tsv */
    static SyscallCount parse(String line) {
        String[] f = line.split("\t", -1);
        try {
            if (f.length != 9) {
                throw new NumberFormatException();
            }
            return new SyscallCount(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                    Long.parseLong(f[8]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a line of syscalls.tsv (" + HEADER.replace('\t', ' ') + "): '"
                    + line + "'");
        }
    }

    /** The line for the run's log: the figures per request. */
    String summary() {
        return String.format(Locale.ROOT, "system calls %-16s %s per request (reads %s, writes %s, epoll_ctl %s,"
                        + " epoll waits %s, futex %s), context switches %s",
                target, perRequest(total), perRequest(reads), perRequest(writes), perRequest(epollCtl),
                perRequest(epollWait), perRequest(futex), perRequest(contextSwitches));
    }

    /**
     * The Markdown table: per target (in the order given), each kind per request, from the sum of its lines (a
     * target counted more than once is the total of its counts over the total of its requests).
     */
    static String report(List<SyscallCount> lines, List<String> targets) {
        StringBuilder out = new StringBuilder("\n| target | system calls / req | reads | writes | epoll_ctl"
                + " | epoll waits | futex | other | context switches / req |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String target : targets) {
            List<SyscallCount> mine = lines.stream().filter(l -> l.target().equals(target)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            SyscallCount sum = mine.stream().reduce(SyscallCount::plus).orElseThrow();
            long other = sum.total - sum.reads - sum.writes - sum.epollCtl - sum.epollWait - sum.futex;
            out.append("| ").append(target);
            for (long n : new long[] {sum.total, sum.reads, sum.writes, sum.epollCtl, sum.epollWait, sum.futex,
                    other, sum.contextSwitches}) {
                out.append(" | ").append(sum.perRequest(n));
            }
            out.append(" |\n");
        }
        return out.toString();
    }

    private SyscallCount plus(SyscallCount o) {
        return new SyscallCount(target, requests + o.requests, total + o.total, reads + o.reads, writes + o.writes,
                epollCtl + o.epollCtl, epollWait + o.epollWait, futex + o.futex, contextSwitches + o.contextSwitches);
    }

    private String perRequest(long n) {
        return requests > 0 ? String.format(Locale.ROOT, "%.2f", (double) n / requests) : "-";
    }
}
