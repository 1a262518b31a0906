package org.jwd.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Size, modification time and file key (inode) of each configuration file: two {@code stat} calls a file, no read.
 * A {@code stat} of the path follows links and renames alike: editors that write a new file and rename it over the
 * old one change the file key, and so does Kubernetes swapping a ConfigMap's symbolic link.
 */
record FileSignatures(Map<Path, Signature> files) {
    /** {@code -1} and {@code null} when the file does not exist */
    record Signature(long size, long modified, Object fileKey) {
    }

    FileSignatures {
        files = Map.copyOf(files);
    }

    static FileSignatures of(List<Path> paths) {
        Map<Path, Signature> files = new LinkedHashMap<>();
        for (Path p : paths) {
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                files.put(p, new Signature(a.size(), a.lastModifiedTime().toMillis(), a.fileKey()));
            } catch (IOException e) {
                files.put(p, new Signature(-1, -1, null));
            }
        }
        return new FileSignatures(files);
    }
}
