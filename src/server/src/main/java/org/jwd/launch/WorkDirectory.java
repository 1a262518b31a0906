package org.jwd.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.jwd.operator.OperatorConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what earlier runs of {@code bin/jwd run} kept in its work directory ({@code -Djwd.work}) and no run has
 * written for a week: Jetty command lines ({@code jetty-<checksum>.cmd}) and class-data archives
 * ({@code jwd-<JDK>-<class path>.jsa}, {@code .aot}) made for another JDK, jwd version or set of Jetty arguments
 * (every upgrade makes new ones), and those a killed run left half-written ({@code <name>.<pid>}). Never the files
 * this run chose, which {@code bin/jwd} names in {@code -Djwd.work.keep}: a file's time says when it was made, not
 * when it was last used. A run that needs a removed file again makes it again (one slower start).
 *
 * <p>Registered on the server by {@code jetty-base/etc/jwd-launcher.xml}: once Jetty has started, on a thread of its
 * own, so that it costs the start nothing; a file it cannot remove stays, for the next start to try.
 */
public final class WorkDirectory implements LifeCycle.Listener {
    /** The names of the files this run chose, separated by spaces. */
    public static final String KEEP_PROPERTY = "jwd.work.keep";
    /** A file no run wrote for this long goes. */
    static final Duration UNUSED = Duration.ofDays(7);
    /** The kinds of files the launcher writes there, whole or half-written. */
    private static final Pattern KINDS = Pattern.compile("(jetty-[0-9]+\\.cmd|jwd-.+\\.(jsa|aot))(\\.[0-9]+)?");
    private static final Logger LOG = LoggerFactory.getLogger(WorkDirectory.class);

    @Override
    public void lifeCycleStarted(LifeCycle event) {
        String work = System.getProperty(OperatorConfig.WORK_PROPERTY);
        if (!(event instanceof Server) || work == null || work.isBlank()) {
            return;
        }
        Set<String> keep = Set.copyOf(Arrays.asList(System.getProperty(KEEP_PROPERTY, "").split(" ")));
        Thread prune = new Thread(() -> prune(Path.of(work), keep, Instant.now()), "jwd-work-directory");
        prune.setDaemon(true);
        prune.start();
    }

    /** Removes the files of the launcher's kinds in {@code work} last written before {@code now} - a week. */
    static List<String> prune(Path work, Set<String> keep, Instant now) {
        List<String> removed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(work)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (KINDS.matcher(name).matches() && !keep.contains(name)
                        && removeIfUnusedSince(file, now.minus(UNUSED))) {
                    removed.add(name);
                }
            }
        } catch (IOException e) {
            LOG.warn("jwd: the work directory {} cannot be read to prune it: {}", work, e.toString());
        }
        if (!removed.isEmpty()) {
            LOG.info("jwd: removed from the work directory {}, as no run wrote them for a week: {}", work, removed);
        }
        return removed;
    }

    /** Removes {@code file} when it was last written before {@code since}: whether it did. */
    private static boolean removeIfUnusedSince(Path file, Instant since) {
        try {
            // another dispatcher starting from this directory may remove it first
            return Files.isRegularFile(file) && Files.getLastModifiedTime(file).toInstant().isBefore(since)
                    && Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("jwd: {} stays in the work directory: {}", file, e.toString());
            return false;
        }
    }
}
