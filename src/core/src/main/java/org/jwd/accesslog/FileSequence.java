package org.jwd.accesslog;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The names of one handler's files, as SAP chooses them, and the deletion of the oldest beyond {@code MAXFILES}: the
 * next file is {@code LOGFILE} expanded for now; when a file of that name exists, the name followed by {@code _0},
 * {@code _1}, ... (the numbers only grow within one name, so a file MAXFILES deleted does not come back as the next
 * one). With {@code FILEWRAP=on} the name has no number: its file is emptied and begun again, and it is the only one
 * kept. Used by one thread at a time (the opening one at the start, then the writer thread).
 */
final class FileSequence {
    private static final Logger LOG = LoggerFactory.getLogger(FileSequence.class);

    /**
     * The next file.
     *
     * @param truncate whether it is emptied first (FILEWRAP=on's switch, APPEND=FALSE's start)
     */
    record Next(String file, boolean truncate) {
    }

    private final LogFileName name;
    private final FileRules rules;
    /** the last file's name without its {@code _n} suffix, and n (-1 for none) */
    private String base;
    private int suffix;
    private String inUse;
    /** the files this log opened, oldest first: MAXFILES deletes them in this order, after those found at the start */
    private final Deque<String> opened = new ArrayDeque<>();

    FileSequence(LogFileName name, FileRules rules) {
        this.name = name;
        this.rules = rules;
    }

    /**
     * The file for {@code nowMillis}.
     *
     * @param start the first file: an existing one below MAXSIZEKB is continued (emptied with APPEND=FALSE);
     *              otherwise a file that exists is not (but with FILEWRAP=on, which empties it)
     */
    Next next(long nowMillis, boolean start) {
        String expanded = name.expand(nowMillis);
        if (rules.wrap() || start && !rules.append()) {
            base = expanded;
            suffix = -1;
            return new Next(expanded, !start || !rules.append());
        }
        int n = expanded.equals(base) ? suffix + 1 : -1;
        String next = n < 0 ? expanded : expanded + "_" + n;
        while (new File(next).exists() && (!start || !continuable(next))) {
            next = expanded + "_" + ++n;
        }
        base = expanded;
        suffix = n;
        return new Next(next, false);
    }

    /** {@code file} is the one in use now: the oldest beyond MAXFILES (1 with FILEWRAP=on) are deleted. */
    void opened(String file) {
        inUse = file;
        String current = Path.of(file).getFileName().toString();
        opened.remove(current);
        opened.addLast(current);
        int keep = rules.wrap() ? 1 : rules.maxFiles();
        if (keep > 0) {
            deleteOldFiles(keep);
        }
    }

    private boolean continuable(String file) {
        return rules.maxSizeKb() == 0 || new File(file).length() < rules.maxSizeKb() * 1024;
    }

    /**
     * Deletes the oldest files of this log beyond {@code keep}, never the one in use: first those found at the start
     * (by time of last change), then those it opened, in order (a file's last change says little when lines of
     * earlier requests reach it after the next one was opened).
     */
    private void deleteOldFiles(int keep) {
        File dir = Path.of(inUse).toAbsolutePath().getParent().toFile();
        Pattern mine = LogFileName.of(Path.of(name.toString()).getFileName().toString(), name.zone()).files();
        File[] files = dir.listFiles(f -> f.isFile() && mine.matcher(f.getName()).matches());
        if (files == null || files.length <= keep) {
            return;
        }
        List<String> order = List.copyOf(opened);
        Arrays.sort(files, Comparator.comparingInt((File f) -> order.indexOf(f.getName()))
                .thenComparingLong(File::lastModified).thenComparing(File::getName));
        String current = Path.of(inUse).getFileName().toString();
        int excess = files.length - keep;
        for (File f : files) {
            if (excess == 0) {
                break;
            }
            if (!f.getName().equals(current)) {
                if (!f.delete()) {
                    LOG.warn("jwd: cannot delete the old access log file {} (MAXFILES={})", f, keep);
                }
                opened.remove(f.getName());
                excess--;
            }
        }
    }
}
