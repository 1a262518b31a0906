package org.jwd.discovery;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the message server's server list says ({@link ServerListParser}): the instances in its order, and one
 * message per row or record that was not read as written.
 */
public record ServerList(String version, List<Instance> instances, List<String> problems) {
    public ServerList {
        instances = List.copyOf(instances);
        problems = List.copyOf(problems);
    }

    /**
     * One row of an instance: {@code <PROT> <host> <port> <description>}.
     *
     * @param description what follows the port, possibly empty ({@code LB=3}, {@code VHOST=0}, ...)
     */
    public record Row(String protocol, String host, int port, String description) {
        private static final Pattern LB = Pattern.compile("(?:^|[\\s,;])LB=(\\d{1,6})(?:$|[\\s,;])");

        /** {@code LB=<n>} of the description, or {@code null}. */
        public Integer lb() {
            Matcher m = LB.matcher(description);
            return m.find() ? Integer.valueOf(m.group(1)) : null;
        }

        @Override
        public String toString() {
            return protocol + " " + host + " " + port + (description.isEmpty() ? "" : " " + description);
        }
    }

    /**
     * One instance: its SAP name ({@code <host>_<SID>_<NN>}, or {@code J2EE<cluster id>} for a Java dispatcher) and
     * its rows of the protocols jwd knows, in the list's order.
     */
    public record Instance(String name, List<Row> rows) {
        private static final Pattern JAVA_NAME = Pattern.compile("J2EE\\d+");

        public Instance {
            rows = List.copyOf(rows);
        }

        /** The first row of this protocol, or {@code null}. */
        public Row row(String protocol) {
            return rows.stream().filter(r -> r.protocol().equals(protocol)).findFirst().orElse(null);
        }

        /** An ABAP stack: a {@code DIAG} or {@code DIAGS} row. */
        public boolean hasAbap() {
            return row("DIAG") != null || row("DIAGS") != null;
        }

        /** A Java stack: named {@code J2EE<cluster id>}, or listing {@code J2EE}/{@code J2EES} rows. */
        public boolean hasJava() {
            return JAVA_NAME.matcher(name.toUpperCase(Locale.ROOT)).matches() || row("J2EE") != null
                    || row("J2EES") != null;
        }

        @Override
        public String toString() {
            return name + rows;
        }
    }
}
