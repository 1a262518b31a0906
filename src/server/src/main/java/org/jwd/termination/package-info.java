/**
 * jwd's HTTPS listeners in the Jetty distribution ({@link HttpsTermination}): a TLS factory per listener made from
 * the configuration's SSL configurations, further listeners made like the {@code ssl} module's connector
 * ({@link HttpsConnectors}), and the watch that renews a listener's certificate when its files change and publishes
 * what each presents to the webapp. Its classes come in the server module's jar, on the server class path
 * ({@code jetty-base/lib/jwd/}).
 */
package org.jwd.termination;
