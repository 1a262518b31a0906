package org.jwd.routing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jwd.config.DispatcherConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the URL mapping table in force: the entries of {@code icf.url_prefixes} merged with those loaded from
 * {@code icf.url_prefixes_url}, reloaded every {@code wdisp/auto_refresh}. Readers get the current table
 * through {@link #current()} without locking; a reload builds a new immutable table and swaps it in whole.
 *
 * <p>A reload that fails (connection refused, timeout, status other than 200, a body without a single
 * prefix, or one with the entry {@code /}) keeps the last good table and logs a WARN naming the URL and the
 * error. A 200 without prefixes counts as a failure because an error page served as 200 would otherwise turn
 * every ABAP URL into J2EE; a table with {@code /} because it would turn every J2EE URL into ABAP (see
 * {@link UrlMappingTable}).
 * When the first load fails the table is the file entries alone until a reload succeeds.
 *
 * <p><b>The format</b> is what SAP's {@code /sap/public/icf_info/icr_urlprefix} serves, read by
 * {@link IcrUrlPrefixParser}: the {@code STACK=ABAP} lines (and those without {@code STACK}) are the table's
 * entries; {@code GROUP} is not read here (discovery reads it, {@code org.jwd.discovery}).
 */
public final class UrlPrefixLoader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UrlPrefixLoader.class);
    private static final int MAX_REPORTED_PROBLEMS = 5;

    private final UrlMappingTable fileTable;
    private final URI url;
    private final Duration refresh;
    private final Duration timeout;
    private final HttpClient client;
    private final AtomicReference<UrlMappingTable> current;
    /** The body the current loaded entries came from: an unchanged body is not parsed or logged again. */
    private String lastBody;
    /** Serializes loads (the schedule and refreshNow); start and close lock {@code this} instead. */
    private final Object loadLock = new Object();
    /** The refreshes on the shared scheduler, from {@link #start}; guarded by this. */
    private ScheduledFuture<?> refreshes;
    private volatile boolean closed;
    /** Why the last load failed, for the admin page; {@code null} after a success. */
    private volatile String lastError;
    /** When the URL last answered with a table (epoch milliseconds), 0 before. */
    private volatile long loadedAtMillis;

    /**
     * From {@code icf.url_prefixes}, {@code icf.url_prefixes_url} and {@code wdisp/auto_refresh}; a fetch
     * connects within {@code jwd.connect_timeout} and completes within {@code jwd.request_timeout} or
     * {@code wdisp/auto_refresh}, whichever is shorter.
     *
     * @throws IllegalArgumentException when an entry of {@code icf.url_prefixes} is not a valid prefix
     */
    public UrlPrefixLoader(DispatcherConfig config) {
        this(config.urlMapping().urlPrefixes(), config.urlMapping().urlPrefixesUrl(), config.urlMapping().autoRefresh(), config.forwarding().connectTimeout(),
                min(config.forwarding().requestTimeout(), config.urlMapping().autoRefresh()));
    }

    /**
     * @param url where to load entries from, or {@code null} for the file entries alone
     * @throws IllegalArgumentException when an entry of {@code fileEntries} is not a valid prefix
     */
    UrlPrefixLoader(List<String> fileEntries, URI url, Duration refresh, Duration connectTimeout,
                    Duration timeout) {
        this.fileTable = UrlMappingTable.parse(fileEntries);
        this.url = url;
        this.refresh = refresh;
        this.timeout = timeout;
        this.current = new AtomicReference<>(fileTable);
        this.client = url == null ? null : HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * Loads the URL once, synchronously, so that the first requests already see its entries, then every
     * {@code wdisp/auto_refresh} as a job of {@code scheduler}, which outlives this loader ({@link #close} cancels
     * the job). Without a URL there is nothing to do.
     */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (closed) {
            throw new IllegalStateException("the URL prefix loader is closed");
        }
        if (url == null || refreshes != null) {
            return;
        }
        refreshNow();
        refreshes = scheduler.scheduleWithFixedDelay(this::refreshNow, refresh.toMillis(), refresh.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Stops reloading; the current table stays readable. */
    @Override
    public synchronized void close() {
        closed = true;
        if (refreshes != null) {
            refreshes.cancel(true);
            refreshes = null;
        }
    }

    /** The table in force, for {@link GroupResolver}; each {@code get()} is one volatile read. */
    public Supplier<UrlMappingTable> current() {
        return current::get;
    }

    /** Why the last load from the URL failed, or {@code null} when it succeeded (or none was tried). */
    public String lastError() {
        return lastError;
    }

    /** The entries of {@code icf.url_prefixes}, which every table in force holds. */
    public UrlMappingTable fileTable() {
        return fileTable;
    }

    /** When the URL last answered with a table (epoch milliseconds); 0 before, or without a URL. */
    public long loadedAtMillis() {
        return loadedAtMillis;
    }

    /** How often the URL is loaded again ({@code wdisp/auto_refresh}). */
    public Duration refresh() {
        return refresh;
    }

    /** Where entries are loaded from, or {@code null}. */
    public URI url() {
        return url;
    }

    /**
     * Loads the URL now. Never throws: a scheduled task that throws is never run again.
     *
     * @return whether the table now reflects the URL's content
     */
    boolean refreshNow() {
        if (url == null) {
            return false;
        }
        synchronized (loadLock) {
            return load();
        }
    }

    private boolean load() {
        try {
            String body = fetch();
            if (body.equals(lastBody)) {
                LOG.debug("URL prefixes at {} unchanged", url);
                lastError = null;
                loadedAtMillis = System.currentTimeMillis();
                return true;
            }
            install(body, readPrefixes(body));
            loadedAtMillis = System.currentTimeMillis();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (closed) {
                LOG.debug("loading URL prefixes from {} stopped: the loader is closed", url);
                return false;
            }
            return failed(e);
        } catch (Exception e) {
            return failed(e);
        }
    }

    /** The URL's body; a status other than 200 is a failure. */
    private String fetch() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET()
                .header("Accept", "text/plain").build();
        HttpResponse<String> response = client.send(request,
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() != 200) {
            throw new IOException("status " + response.statusCode() + ", expected 200");
        }
        return response.body();
    }

    /** The prefixes of a body, its problems logged; a body without a single prefix is a failure. */
    private List<UrlPrefix> readPrefixes(String body) throws IOException {
        List<String> problems = new ArrayList<>();
        List<UrlPrefix> prefixes = parse(body, problems);
        if (prefixes.isEmpty()) {
            throw new IOException("the response has no URL prefix"
                    + (problems.isEmpty() ? "" : " (" + summary(problems) + ")"));
        }
        if (!problems.isEmpty()) {
            LOG.warn("URL prefixes at {}: {} lines ignored or read with the default: {}", url,
                    problems.size(), summary(problems));
        }
        return prefixes;
    }

    /** Swaps in the file entries merged with the loaded ones, unless the table refuses them (such as '/'). */
    private void install(String body, List<UrlPrefix> prefixes) throws IOException {
        UrlMappingTable loaded;
        try {
            loaded = UrlMappingTable.of(prefixes);
        } catch (IllegalArgumentException e) {
            throw new IOException("the table is refused: " + e.getMessage());
        }
        UrlMappingTable merged = fileTable.merge(loaded);
        UrlMappingTable previous = current.getAndSet(merged);
        lastBody = body;
        lastError = null;
        if (!merged.equals(previous)) {
            LOG.info("URL mapping table now has {} entries ({} from {}, {} from icf.url_prefixes)",
                    merged.size(), prefixes.size(), url, fileTable.size());
        }
    }

    private boolean failed(Exception e) {
        lastError = describe(e);
        LOG.warn("cannot load URL prefixes from {}: {}; keeping the last good table ({} entries)",
                url, lastError, current.get().size());
        return false;
    }

    /**
     * Reads a response body ({@link IcrUrlPrefixParser}, the one reader of SAP's format): its ABAP prefixes, since
     * the table says which URLs are ABAP; a {@code STACK=J2EE} line says a URL is Java, which it is without an
     * entry. Every line that is not read as written adds a message to {@code problems}.
     */
    static List<UrlPrefix> parse(String body, List<String> problems) {
        IcrUrlPrefixParser.Result result = IcrUrlPrefixParser.parse(body);
        problems.addAll(result.problems());
        return result.entries().stream().filter(e -> e.stack() == org.jwd.config.ServerType.ABAP)
                .map(IcrUrlPrefixParser.Entry::prefix).toList();
    }

    /** The exception and its causes: the JDK client's ConnectException alone has no message at all. */
    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder(e.toString());
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            sb.append(" (").append(cause).append(')');
        }
        return sb.toString();
    }

    private static String summary(List<String> problems) {
        return String.join("; ", problems.subList(0, Math.min(problems.size(), MAX_REPORTED_PROBLEMS)))
                + (problems.size() > MAX_REPORTED_PROBLEMS ? "; ..." : "");
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    public String toString() {
        return "UrlPrefixLoader(" + (url == null ? "no URL" : url + " every " + refresh) + ", " + current.get()
                + ")";
    }
}
