/**
 * OpenTelemetry's traces of the requests jwd serves ({@link org.jwd.tracing.Tracing}): a server span per request
 * that carries the routing decision, a client span per forward to a server. Only OpenTelemetry's API: the SDK comes
 * from the runtime, or tracing is off and costs nothing.
 */
package org.jwd.tracing;
