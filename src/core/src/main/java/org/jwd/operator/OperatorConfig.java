package org.jwd.operator;

import java.nio.file.Path;

import org.jwd.config.ClusterConfig;
import org.jwd.config.ConfigLoader;
import org.jwd.config.KeyReader;
import org.jwd.config.SessionTableDiskConfig;

/**
 * Where an operator's drain, disable and enable are kept across restarts: in cluster mode on the Terracotta server
 * ({@code SessionTable.cluster_uri}), shared by every node; otherwise in a state file, {@code jwd.state_file}, by
 * default {@value #FILE_NAME} in the persistent session table's directory ({@code SessionTable.disk_path}), else
 * {@code operator-state-<configuration file's name>-<8 hex digits of its path's SHA-256>.properties} in the work
 * directory {@code bin/jwd} gives ({@code -Djwd.work}). Without any of these (a WAR in another container without
 * the key) they hold until the restart only.
 *
 * @param stateFile the state file, or {@code null} (cluster mode, or nowhere to keep it)
 * @param cluster   cluster mode's configuration, or {@code null}
 */
public record OperatorConfig(Path stateFile, ClusterConfig cluster) {
    public static final String STATE_FILE_KEY = "jwd.state_file";
    public static final String FILE_NAME = "operator-state.properties";
    /** Set by {@code bin/jwd run}: its work directory. */
    public static final String WORK_PROPERTY = "jwd.work";

    /**
     * Reads {@value #STATE_FILE_KEY} (restart-only); the other keys are their sections' own.
     *
     * @param cluster cluster mode's section, or {@code null} without it
     */
    public static OperatorConfig read(KeyReader keys, ClusterConfig cluster) {
        KeyReader restart = keys.restartOnly();
        Path file = restart.path(STATE_FILE_KEY, "a file name (relative to the configuration file's directory)");
        if (cluster != null) {
            if (file != null) {
                keys.problem(STATE_FILE_KEY, "no " + ClusterConfig.KEY + " beside it: in cluster mode the Terracotta"
                        + " server keeps what the operator decided, for every node");
            }
            return new OperatorConfig(null, cluster);
        }
        if (file == null) {
            file = keptFile(restart, FILE_NAME, "operator-state");
        }
        return new OperatorConfig(file, null);
    }

    /**
     * Where jwd keeps a state file of its own when no key names one: {@code fileName} in the persistent session
     * table's directory ({@code SessionTable.disk_path}), else {@code <stem>-<configuration file's name>-<8 hex
     * digits of its path's SHA-256>.<extension of fileName>} in the work directory {@code bin/jwd} gives; {@code null}
     * without either (a WAR in another container).
     */
    public static Path keptFile(KeyReader keys, String fileName, String stem) {
        String disk = keys.raw(SessionTableDiskConfig.PATH_KEY);
        if (disk != null && !disk.isBlank()) {
            return keys.directory().resolve(disk.strip()).resolve(fileName);
        }
        String work = System.getProperty(WORK_PROPERTY);
        String config = System.getProperty(ConfigLoader.SYSTEM_PROPERTY);
        if (work == null || work.isBlank() || config == null || config.isBlank()) {
            return null;
        }
        // one file per configuration: several dispatchers may run from one distribution
        Path file = Path.of(config).toAbsolutePath();
        String name = String.valueOf(file.getFileName()).replaceFirst("\\.properties$", "");
        String extension = fileName.substring(fileName.lastIndexOf('.'));
        return Path.of(work).resolve(stem + "-" + name + "-" + shortHash(file.toString()) + extension);
    }

    private static String shortHash(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8))).substring(0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return cluster != null ? "shared through " + cluster : stateFile != null ? "kept in " + stateFile
                : "kept until the restart only";
    }
}
