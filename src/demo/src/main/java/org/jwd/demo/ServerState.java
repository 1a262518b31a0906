package org.jwd.demo;

import org.jwd.demo.DemoBackend.Options;

/**
 * What one server process holds and counts, shared by its servlet and the test-facing {@link DemoBackend}: what it
 * answered, how slowly it answers, its sessions, and its {@code /hold} gate.
 */
record ServerState(Traffic traffic, Delays delays, Sessions sessions, Faults faults) {
    static ServerState of(Options options) {
        return new ServerState(new Traffic(), new Delays(options.delayMillis(), options.iviewDelayMillis()),
                new Sessions(), new Faults(options.id()));
    }
}
