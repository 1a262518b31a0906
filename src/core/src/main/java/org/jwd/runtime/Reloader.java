package org.jwd.runtime;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.LongSupplier;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.filter.AuthHandlers;
import org.jwd.modification.ModificationHandlers;
import org.jwd.systems.SystemScope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hot reload of the configuration: reads the properties file again (and the files it names, such as
 * {@code wdisp/permission_table} and the action files of {@code icm/HTTP/mod_<xx>}) when the {@link ConfigWatch} saw it change or when an operator asks
 * ({@code POST api/reload}), and hands a valid configuration to {@link Dispatcher#apply}, which swaps it in as one
 * {@link DispatcherState}. An invalid one is rejected whole: the running configuration stays, the problems are
 * logged at WARN and kept for the admin page and API. A content digest (of the file and the files it names) tells
 * an unchanged file (touched, or saved as it was) from a change: it answers {@code unchanged} and swaps nothing.
 *
 * <p>A new {@code SessionTableTimeout} or {@code wdisp/HTTP/context_timeout} applies to the node's own session
 * table (new entries at once, existing ones from their next use, never earlier than their old deadline) and keeps
 * every binding, and so does switching the temporary table or one kind of SAP's session ID table on or off; creating
 * or removing the whole table (every part off before or after), and any change in cluster mode, need a restart.
 *
 * <p><b>Keys that need a restart</b> (read as restart-only by their sections, {@link DispatcherConfig#restartKeys()}):
 * the session table's existence and sizes, cluster mode, TLS, the end-to-end TLS listener, the HTTP client's
 * timeouts, the administrator's credentials and the registry's expiry are built once at startup. A reload that changes them keeps the running values, logs a WARN
 * naming each key, and shows them as pending until a restart; the rest of the change is applied.
 */
public final class Reloader {
    private static final Logger LOG = LoggerFactory.getLogger(Reloader.class);

    /** Keys whose value names a file that is part of the configuration, relative to the configuration file. */
    public static final List<String> FILE_KEYS = List.of("wdisp/permission_table");
    /**
     * The keys that switch the session table's parts on and off and set its timeouts: applied live while the table
     * exists before and after the reload and can change its timeouts (not in cluster mode); a restart otherwise.
     */
    static final Set<String> LIVE_TABLE_KEYS = Set.of("SessionTableTimeout", "wdisp/HTTP/context_timeout",
            "wdisp/HTTP/esid_support", "wdisp/HTTP/jsessionid_tab_support");

    /** What a reload did. */
    public enum Outcome {
        /** the new configuration is in force */
        APPLIED,
        /** the files hold what is in force already: nothing was swapped */
        UNCHANGED,
        /** invalid: the running configuration stays */
        REJECTED;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A key changed in the file whose change waits for a restart.
     *
     * @param running the value in force ({@code null}: not set)
     * @param file    the value in the file ({@code null}: removed)
     */
    public record Pending(String key, String running, String file) {
        @Override
        public String toString() {
            return key + ": running " + show(key, running) + ", file " + show(key, file);
        }
    }

    /**
     * The last reload.
     *
     * @param at      when it ran
     * @param trigger {@code file change} or {@code api}
     * @param errors  why it was rejected, one line per problem naming file:line and key; empty otherwise
     * @param pending keys changed in the file that wait for a restart
     */
    public record Result(Outcome outcome, Instant at, String trigger, List<String> errors, List<Pending> pending) {
        public Result {
            errors = List.copyOf(errors);
            pending = List.copyOf(pending);
        }
    }

    private final Path file;
    private final Dispatcher dispatcher;
    private final LongSupplier clockMillis;
    /** digest of the files the configuration in force came from; guarded by this */
    private byte[] appliedDigest;
    private volatile Instant loadedAt;
    private volatile Result last;
    /** the files' signatures when they were last read (at the start: by the composition root) */
    private volatile FileSignatures read;

    /**
     * @param file        the configuration file the dispatcher was started with
     * @param clockMillis epoch milliseconds, for the times shown
     */
    public Reloader(Path file, Dispatcher dispatcher, LongSupplier clockMillis) {
        this.file = file;
        this.dispatcher = dispatcher;
        this.clockMillis = clockMillis;
        this.loadedAt = Instant.ofEpochMilli(clockMillis.getAsLong());
        this.read = FileSignatures.of(watched());
        try {
            this.appliedDigest = digest(dispatcher.config());
        } catch (IOException e) {
            this.appliedDigest = new byte[0];
        }
    }

    /**
     * Reads the configuration file and the files it names again, and applies them when valid and changed.
     *
     * @param trigger what asked, for the log and the page: {@code file change}, {@code api}
     */
    public synchronized Result reload(String trigger) {
        FileSignatures signatures = FileSignatures.of(watched());
        Instant at = Instant.ofEpochMilli(clockMillis.getAsLong());
        DispatcherConfig next;
        byte[] digest;
        List<Pending> pending = new ArrayList<>();
        try {
            next = ConfigReader.load(file);
            digest = digest(next);
            if (MessageDigest.isEqual(digest, appliedDigest)) {
                read = signatures;
                return remember(new Result(Outcome.UNCHANGED, at, trigger, List.of(), pendingOf(next)));
            }
            next = keepRunning(next, pending);
            dispatcher.apply(next);
        } catch (ConfigException e) {
            read = signatures;
            return rejected(new Result(Outcome.REJECTED, at, trigger, e.problems(), last == null ? List.of()
                    : last.pending()));
        } catch (IOException e) {
            read = signatures;
            String problem = "cannot read a file the configuration names: " + e;
            return rejected(new Result(Outcome.REJECTED, at, trigger, List.of(problem), List.of()));
        }
        appliedDigest = digest;
        read = signatures;
        loadedAt = at;
        return applied(new Result(Outcome.APPLIED, at, trigger, List.of(), pending));
    }

    private Result rejected(Result result) {
        LOG.warn("jwd: configuration {} rejected ({}), the running configuration stays: {}", file, result.trigger(),
                String.join("; ", result.errors()));
        dispatcher.metrics().configReloaded(false, result.at().toEpochMilli());
        return remember(result);
    }

    private Result applied(Result result) {
        dispatcher.metrics().configReloaded(true, result.at().toEpochMilli());
        DispatcherConfig in = dispatcher.config();
        LOG.info("jwd: configuration {} reloaded ({}): {} servers, strategy {}", file, result.trigger(),
                in.servers().size(), in.loadBalancingStrategy());
        for (Pending p : result.pending()) {
            LOG.warn("jwd: {} changed in {} but needs a restart: the running value stays ({})", p.key(), file, p);
        }
        return remember(result);
    }

    private Result remember(Result result) {
        last = result;
        return result;
    }

    /**
     * The restart keys whose value in {@code fromFile} differs from the running one. The {@link #LIVE_TABLE_KEYS} are
     * among them only when the table cannot change its timeouts (cluster mode) or would be created or removed; so
     * are a system's ({@code system.ERP.SessionTableTimeout}).
     */
    private List<Pending> pendingOf(DispatcherConfig fromFile) {
        List<Pending> pending = new ArrayList<>();
        DispatcherConfig current = dispatcher.config();
        Map<String, String> running = current.properties();
        boolean liveTimeout = current.sessionTableEnabled() && fromFile.sessionTableEnabled()
                && dispatcher.sessionTable().canChangeTimeout();
        Set<String> keys = new java.util.TreeSet<>(current.restartKeys());
        // a system's session keys, a user (admin.users.<name>.*) and an icm/HTTP/admin_<xx> are restart keys only
        // where given: one the file adds counts as a change too
        keys.addAll(fromFile.restartKeys());
        for (String key : keys) {
            String unscoped = SystemScope.unscoped(key);
            if (liveTimeout && LIVE_TABLE_KEYS.contains(unscoped == null ? key : unscoped)) {
                continue;
            }
            if (!Objects.equals(running.get(key), fromFile.properties().get(key))) {
                pending.add(new Pending(key, running.get(key), fromFile.properties().get(key)));
            }
        }
        return pending;
    }

    /**
     * {@code fromFile} with the running values of the keys that need a restart, parsed again so that every derived
     * value agrees with them; {@code pending} receives the keys whose change waits.
     */
    private DispatcherConfig keepRunning(DispatcherConfig fromFile, List<Pending> pending) throws ConfigException {
        pending.addAll(pendingOf(fromFile));
        if (pending.isEmpty()) {
            return fromFile;
        }
        Properties merged = new Properties();
        merged.putAll(fromFile.properties());
        for (Pending p : pending) {
            if (p.running() == null) {
                merged.remove(p.key());
            } else {
                merged.setProperty(p.key(), p.running());
            }
        }
        StringWriter text = new StringWriter();
        try {
            merged.store(text, null);
        } catch (IOException e) {
            throw new IllegalStateException("a StringWriter does not fail", e);
        }
        return ConfigReader.parse(text.toString(), file.toString(), file.toAbsolutePath().getParent());
    }

    /** The configuration file and the files it names (those of the configuration in force). */
    public List<Path> watched() {
        List<Path> files = new ArrayList<>();
        files.add(file);
        files.addAll(named(dispatcher.config()));
        return files;
    }

    private List<Path> named(DispatcherConfig config) {
        List<Path> files = new ArrayList<>();
        for (String key : FILE_KEYS) {
            String value = config.properties().get(key);
            if (value != null && !value.isBlank()) {
                Path p = Path.of(value.strip());
                Path dir = file.toAbsolutePath().getParent();
                files.add(p.isAbsolute() || dir == null ? p : dir.resolve(p));
            }
        }
        // the action files, as read: a changed one is a changed configuration, reloaded (or rejected) with it
        config.sections().find(ModificationHandlers.class).ifPresent(h -> files.addAll(h.files()));
        config.sections().find(AuthHandlers.class).ifPresent(h -> files.addAll(h.files()));
        return files;
    }

    /** SHA-256 over the configuration file and each file it names. */
    private byte[] digest(DispatcherConfig config) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
        List<Path> files = new ArrayList<>();
        files.add(file);
        files.addAll(named(config));
        for (Path p : files) {
            sha.update(p.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            try {
                sha.update(Files.readAllBytes(p));
            } catch (NoSuchFileException e) {
                sha.update((byte) 0);
            }
        }
        return sha.digest();
    }

    /** The configuration file. */
    public Path file() {
        return file;
    }

    /** When the configuration in force was loaded (startup or the last applied reload). */
    public Instant loadedAt() {
        return loadedAt;
    }

    /** The last reload, or {@code null} when there was none since startup. */
    public Result last() {
        return last;
    }

    /** The files' signatures when they were last read: the {@link ConfigWatch} reads them again when they differ. */
    FileSignatures readSignatures() {
        return read;
    }

    static String show(String key, String value) {
        if (value == null) {
            return "(not set)";
        }
        return key.toLowerCase(Locale.ROOT).contains("password") ? "(hidden)" : "'" + value + "'";
    }

    @Override
    public String toString() {
        return "Reloader[" + file + ", " + (last == null ? "no reload yet" : last.outcome().key()) + "]";
    }
}
