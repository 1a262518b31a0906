package org.jwd.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The feature sections read from the same file as the core keys (limits, TLS, administration, access log, the
 * permission table...), each found by its own type. The configuration layer knows none of these types: each
 * feature package reads its section through the {@link KeyReader} and asks for it here, so that the layer stays at
 * the bottom and a new section needs no change below it.
 *
 * @param restartKeys the keys the sections read as restart-only ({@link KeyReader#restartOnly()})
 */
public record Sections(Map<Class<?>, Object> byType, Set<String> restartKeys) {
    /** No feature section read: a core configuration on its own. */
    public static final Sections NONE = new Sections(Map.of(), Set.of());

    public Sections {
        byType = Map.copyOf(byType);
        restartKeys = Set.copyOf(restartKeys);
    }

    /** The section of this type, or empty when the file configures none (an access log that is off). */
    public <T> Optional<T> find(Class<T> type) {
        return Optional.ofNullable(type.cast(byType.get(type)));
    }

    /** @throws IllegalStateException when the section was not read: a configuration not made by the full reader */
    public <T> T get(Class<T> type) {
        return find(type).orElseThrow(() -> new IllegalStateException("no " + type.getSimpleName()
                + " section: the configuration was read without it"));
    }

    /** Collects the sections as they are read. */
    public static final class Builder {
        private final Map<Class<?>, Object> byType = new LinkedHashMap<>();

        public <T> Builder put(Class<T> type, T section) {
            if (section != null) {
                byType.put(type, section);
            }
            return this;
        }

        public Sections build(Set<String> restartKeys) {
            return new Sections(byType, restartKeys);
        }
    }

    @Override
    public String toString() {
        return "Sections" + byType.keySet().stream().map(Class::getSimpleName).toList();
    }
}
