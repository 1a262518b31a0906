package org.jwd.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The client of {@code src/bench/run idle}: opens N connections at a bounded rate, sends one HTTP/1.1 keep-alive GET on
 * each (with a JSESSIONID of its own per connection when sticky), reads each whole answer, and then holds every
 * answered connection open and idle, as browsers between two clicks do, until {@link #stop()}. One thread and one
 * selector serve them all, so that 10,000 connections cost the client no more than their descriptors and a few
 * hundred bytes each. {@link #counts()} says at any time how many are held, failed (and why) or were closed by the
 * server while idle; at the stop every held connection is checked once more (a read: the server's close shows as
 * its end) and then reset (SO_LINGER 0), so that neither side keeps thousands of sockets in TIME_WAIT.
 * {@link IdleConnectionsMain} runs it from the command line.
 */
final class IdleConnections {
    /**
     * @param host          where to connect
     * @param port          its port
     * @param path          the path of the GET
     * @param connections   how many to open
     * @param ratePerSecond how many to open per second at most
     * @param sticky        whether each request carries {@code Cookie: JSESSIONID=<its own id>}
     * @param answerTimeout how long a connection may take from its connect to the end of its answer
     */
    record Settings(String host, int port, String path, int connections, int ratePerSecond, boolean sticky,
                    Duration answerTimeout) {
        Settings {
            if (connections < 0 || ratePerSecond < 1 || !path.startsWith("/") || answerTimeout.isNegative()) {
                throw new IllegalArgumentException("need connections >= 0, a rate >= 1 per second, a path with a"
                        + " leading / and an answer timeout >= 0; got " + connections + ", " + ratePerSecond + ", '"
                        + path + "', " + answerTimeout);
            }
        }
    }

    private enum Phase { CONNECTING, ASKING, ANSWERING, IDLE }

    /** One connection: its channel, what it is doing, its request while unsent and its answer while unread. */
    private static final class Connection {
        final SocketChannel channel;
        final long startedNanos;
        Phase phase = Phase.CONNECTING;
        ByteBuffer request;
        ResponseParser answer = new ResponseParser();

        Connection(SocketChannel channel, long startedNanos, ByteBuffer request) {
            this.channel = channel;
            this.startedNanos = startedNanos;
            this.request = request;
        }
    }

    private final Settings settings;
    private final InetSocketAddress address;
    private final Selector selector;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    // not answered yet, oldest first: checked for the answer timeout
    private final Set<Connection> pending = new LinkedHashSet<>();
    private final Set<Connection> idle = new LinkedHashSet<>();
    private int attempted;
    private int status;
    private int closed;
    private int refused;
    private int unanswered;
    private int closedIdle;
    private volatile IdleCounts counts;
    private volatile boolean stop;
    private volatile String firstError = "";

    IdleConnections(Settings settings) {
        this.settings = settings;
        this.address = new InetSocketAddress(settings.host(), settings.port());
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.counts = new IdleCounts(settings.connections(), 0, 0, 0, 0, 0, 0, 0);
    }

    /** The counts as of the last turn of {@link #run()}'s loop (at most 10 ms old), or its end. */
    IdleCounts counts() {
        return counts;
    }

    /** The first error a connection met (refused, reset, malformed answer, ...), for the report; "" when none. */
    String firstError() {
        return firstError;
    }

    /** Makes {@link #run()} check the held connections once more, close them all and return. Any thread. */
    void stop() {
        stop = true;
        selector.wakeup();
    }

    /** Opens, asks, holds until {@link #stop()}; returns the counts after the last check. */
    IdleCounts run() throws IOException {
        long start = System.nanoTime();
        try {
            while (!stop) {
                openDue(start);
                selector.select(10);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handle(key, (Connection) key.attachment());
                }
                expireUnanswered();
                publish();
            }
            checkHeld();
            publish();
            return counts;
        } finally {
            for (SelectionKey key : selector.keys()) {
                reset(((Connection) key.attachment()).channel);
            }
            selector.close();
        }
    }

    private void openDue(long start) {
        long elapsedNanos = System.nanoTime() - start;
        long due = Math.min(settings.connections(), elapsedNanos * settings.ratePerSecond() / 1_000_000_000L + 1);
        while (attempted < due) {
            attempted++;
            open(attempted);
        }
    }

    private void open(int index) {
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Connection c = new Connection(channel, System.nanoTime(), request(index));
            if (channel.connect(address)) {
                c.phase = Phase.ASKING;
                channel.register(selector, SelectionKey.OP_WRITE, c);
            } else {
                channel.register(selector, SelectionKey.OP_CONNECT, c);
            }
            pending.add(c);
        } catch (IOException e) {
            // refused at once, or no descriptor left in this process ("Too many open files")
            refused++;
            note(e);
            if (channel != null) {
                reset(channel);
            }
        }
    }

    private ByteBuffer request(int index) {
        StringBuilder r = new StringBuilder("GET ").append(settings.path()).append(" HTTP/1.1\r\nHost: ")
                .append(settings.host()).append(':').append(settings.port()).append("\r\nUser-Agent: jwd-idle\r\n");
        if (settings.sticky()) {
            // an id of each connection's own and no route: a session the dispatcher binds to a server
            r.append("Cookie: JSESSIONID=").append(String.format("IDLE%012d", index)).append("\r\n");
        }
        return ByteBuffer.wrap(r.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    }

    private void handle(SelectionKey key, Connection c) {
        try {
            if (!key.isValid()) {
                return;
            }
            switch (c.phase) {
                case CONNECTING -> {
                    if (c.channel.finishConnect()) {
                        c.phase = Phase.ASKING;
                        key.interestOps(SelectionKey.OP_WRITE);
                    }
                }
                case ASKING -> {
                    c.channel.write(c.request);
                    if (!c.request.hasRemaining()) {
                        c.request = null;
                        c.phase = Phase.ANSWERING;
                        key.interestOps(SelectionKey.OP_READ);
                    }
                }
                case ANSWERING -> answer(c);
                case IDLE -> idleRead(c);
            }
        } catch (IOException | IllegalArgumentException e) {
            failed(c, e);
        }
    }

    private void answer(Connection c) throws IOException {
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
        if (n < 0) {
            pending.remove(c);
            closed++;
            if (!c.answer.endsAtClose()) {
                note(new IOException("closed by the server before the end of its answer"));
            }
            reset(c.channel);
            return;
        }
        readBuffer.flip();
        if (!c.answer.feed(readBuffer)) {
            return;
        }
        pending.remove(c);
        int code = c.answer.status();
        if (code < 200 || code > 299) {
            status++;
            note(new IOException("answered " + code));
            reset(c.channel);
        } else if (c.answer.closes()) {
            closed++;
            note(new IOException("answered with Connection: close"));
            reset(c.channel);
        } else {
            c.answer = null;
            c.phase = Phase.IDLE;
            idle.add(c);
        }
    }

    /** A held connection is readable only when the server closes it (or, unasked, sends something): it is over. */
    private void idleRead(Connection c) {
        idle.remove(c);
        closedIdle++;
        reset(c.channel);
    }

    private void failed(Connection c, Exception e) {
        note(e);
        if (c.phase == Phase.IDLE) {
            idleRead(c);
            return;
        }
        pending.remove(c);
        if (c.phase == Phase.CONNECTING) {
            refused++;
        } else {
            closed++;
        }
        reset(c.channel);
    }

    private void expireUnanswered() {
        long now = System.nanoTime();
        long timeout = settings.answerTimeout().toNanos();
        Iterator<Connection> it = pending.iterator();
        while (it.hasNext()) {
            Connection c = it.next();
            if (now - c.startedNanos <= timeout) {
                return; // and so are all started after it
            }
            it.remove();
            unanswered++;
            note(new IOException("no complete answer within " + settings.answerTimeout().toMillis() + " ms"));
            reset(c.channel);
        }
    }

    /** The last look at the held connections: a server's close is an end of stream (or a reset) when read. */
    private void checkHeld() {
        Iterator<Connection> it = idle.iterator();
        while (it.hasNext()) {
            Connection c = it.next();
            try {
                readBuffer.clear();
                if (c.channel.read(readBuffer) == 0) {
                    continue;
                }
            } catch (IOException e) {
                note(e);
            }
            it.remove();
            closedIdle++;
            reset(c.channel);
        }
    }

    private void publish() {
        counts = new IdleCounts(settings.connections(), attempted, idle.size(), status, closed, refused, unanswered,
                closedIdle);
    }

    private void note(Exception e) {
        if (firstError.isEmpty()) {
            firstError = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** Closes with a reset: no TIME_WAIT for thousands of sockets on either side. */
    private static void reset(SocketChannel channel) {
        try {
            if (channel.isOpen()) {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
        } catch (IOException e) {
            // not connected: a plain close
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing what is over anyway
        }
    }
}
