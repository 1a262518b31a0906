/**
 * What {@code bin/jwd run} needs from jwd at the server level, so that the launcher reads no log: which Jetty
 * modules and listeners the configuration asks for ({@link JettyModules}, run before Jetty starts; the listeners of
 * {@code SRCSRV} ports added by {@link SystemListenerConnectors}) and what Jetty's start came
 * to ({@link StartReport}: one {@code jwd: ready on ...} line per listener, or the configuration's problems).
 * Its classes come in the server module's jar, on the server class path ({@code jetty-base/lib/jwd/}).
 */
package org.jwd.launch;
