package org.jwd.metrics;

/**
 * Which system each server is of, as the metrics label their series ({@code system="ERP"}). Asked at every scrape
 * and for each answer, so that a reload that adds or removes {@code wdisp/system_<xx>} entries labels what follows
 * accordingly. The runtime answers it from the state in force; the metrics know of a system only its SID.
 */
public interface ServerSystems {
    /** A dispatcher without {@code wdisp/system_<xx>}: no series has a {@code system} label. */
    ServerSystems NONE = new ServerSystems() {
        @Override
        public boolean configured() {
            return false;
        }

        @Override
        public String systemOf(String serverId) {
            return null;
        }

        @Override
        public String toString() {
            return "no systems";
        }
    };

    /**
     * Whether {@code wdisp/system_<xx>} entries are configured: only then do the series of servers and groups carry a
     * {@code system} label, so that the dashboards of a jwd without systems see the series they always saw.
     */
    boolean configured();

    /** The SID of the server's system; {@code null} when it is of none (a registered server), or without systems. */
    String systemOf(String serverId);

    /**
     * Each system's own topology (its servers and logon groups), by SID, for the series of its groups; none without
     * systems.
     */
    default java.util.Map<String, org.jwd.topology.Topology> topologies() {
        return java.util.Map.of();
    }
}
