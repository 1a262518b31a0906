/**
 * OpenTelemetry's SDK at the server level, for the traces the WAR makes with OpenTelemetry's API
 * ({@link org.jwd.telemetry.TracingSdk}): what Jetty's {@code jwd-otel} module starts when OpenTelemetry's settings ask
 * for traces and no Java agent supplies OpenTelemetry.
 */
package org.jwd.telemetry;
