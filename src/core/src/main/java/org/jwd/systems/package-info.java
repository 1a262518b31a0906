/**
 * Several SAP systems behind one jwd (issue 20): SAP's {@code wdisp/system_<xx>} entries, the choice of a
 * system for a request, and each system's own configuration. Servlet-free and pure, so that the servlet, the
 * dispatcher's state and the session tables can take it up as they are rewritten.
 *
 * <p>What is followed, from SAP's documentation of the profile parameter {@code wdisp/system_<xx>}
 * (help.sap.com, SAP NetWeaver 7.4, "wdisp/system_&lt;xx&gt;", and NetWeaver 7.3, "SAP Web Dispatcher for
 * Multiple Systems"):
 * <ul>
 *   <li>one entry per system, its value a list of {@code NAME=value} subparameters separated by ',';
 *       {@code SID} names the system; one of {@code SRCSRV} (the access point: host and port a request
 *       arrived on, {@code <src-host>:<source-ports>} with {@code *} for any host or port and host names
 *       resolved when the configuration is read), {@code SRCURL} (URL prefixes) and {@code SRCVHOST} (virtual hosts: the {@code Host}
 *       header) is required (SAP's table "Conditions of the Subparameters"), and the items of each list are
 *       separated by ';';</li>
 *   <li>{@code EXTSRV}, with {@code STICKY}, for a non-SAP web server; {@code SSL_ENCRYPT} 0, 1 or 2 per
 *       system, as {@code wdisp/ssl_encrypt};</li>
 *   <li>{@code <xx>} is a number without a leading 0, not necessarily without gaps; the entries' order
 *       is the order of these numbers;</li>
 *   <li>{@code wdisp/system_conflict_resolution}: {@code 0}, the default, makes criteria that more than one
 *       system meets an error at start ("the Web Dispatcher reports an error and does not start");
 *       {@code 1} takes the first system that meets them.</li>
 * </ul>
 * A system's servers, logon groups and URL mapping come from its message server ({@code MSHOST} with
 * {@code MSPORT} or {@code MSSPORT}, or a server list {@code SILOC}: {@link org.jwd.systems.ServerSource}, asked by
 * {@code org.jwd.discovery}), and from jwd's own keys, scoped per system ({@code system.<SID>.server.<id>.url}, see
 * {@link org.jwd.systems.SystemScope}).
 */
package org.jwd.systems;
