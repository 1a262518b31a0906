package org.jwd.launch;

import java.io.PrintStream;
import java.util.List;

/**
 * How the launcher names an unusable configuration, whoever found it (the module decision before Jetty starts,
 * or the webapp while it deploys): a header naming the file, then one indented line per problem, each naming
 * its key.
 */
final class InvalidConfiguration {
    private InvalidConfiguration() {
    }

    static void print(PrintStream out, String file, List<String> problems) {
        out.println("jwd: the configuration " + file + " is invalid:");
        for (String problem : problems) {
            out.println("  " + problem);
        }
    }
}
