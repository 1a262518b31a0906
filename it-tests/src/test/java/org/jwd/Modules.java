package org.jwd;

import java.nio.file.Path;

/**
 * Where the project's modules stand, as the design card lays out the top level: the WAR ({@code webapp/}) and the
 * integration tests ({@code it-tests/}) at the top, every other module under {@code src/}.
 */
final class Modules {
    private Modules() {
    }

    /** The project's top folder (the build passes it; {@code ..} from a module). */
    static Path project() {
        return Path.of(System.getProperty("jwd.projectDir", ".."));
    }

    /** A module's folder by its name: {@code webapp} and {@code it-tests} at the top, the others under src/. */
    static Path dir(String module) {
        return module.equals("webapp") || module.equals("it-tests") ? project().resolve(module)
                : project().resolve("src").resolve(module);
    }

    /** A module's main sources. */
    static Path sources(String module) {
        return dir(module).resolve("src/main/java");
    }
}
