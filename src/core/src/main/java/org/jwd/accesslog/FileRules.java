package org.jwd.accesslog;

import java.util.Locale;

/**
 * When a logging handler begins a new file, and which it keeps: SAP's {@code SWITCHTF}, {@code MAXSIZEKB},
 * {@code MAXFILES}, {@code FILEWRAP} and {@code APPEND} ({@link FileSequence} names the files).
 *
 * @param switchTf  a new file each hour, day or month; {@link AccessLogConfig.Switch#NONE} for none
 * @param maxSizeKb a new file once this size would be passed; 0 for no bound
 * @param maxFiles  files kept, the oldest deleted; 0 for all
 * @param wrap      {@code FILEWRAP=on}: one file only, emptied and begun again where a new one would begin
 * @param append    {@code APPEND}: at the start an existing file is continued ({@code true}) or emptied
 */
public record FileRules(AccessLogConfig.Switch switchTf, long maxSizeKb, int maxFiles, boolean wrap, boolean append) {
    /** A file continued at the start, never switched. */
    public static final FileRules ONE_FILE = new FileRules(AccessLogConfig.Switch.NONE, 0, 0, false, true);

    public FileRules {
        if (maxSizeKb < 0 || maxFiles < 0) {
            throw new IllegalArgumentException("MAXSIZEKB and MAXFILES are not negative: " + maxSizeKb + ", "
                    + maxFiles);
        }
        if (wrap && maxFiles > 1) {
            throw new IllegalArgumentException("FILEWRAP=on keeps one file, MAXFILES=" + maxFiles + " contradicts it");
        }
    }

    @Override
    public String toString() {
        return "SWITCHTF=" + switchTf.name().toLowerCase(Locale.ROOT) + ", MAXSIZEKB=" + maxSizeKb + ", MAXFILES="
                + maxFiles + (wrap ? ", FILEWRAP=on" : "") + (append ? "" : ", APPEND=FALSE");
    }
}
