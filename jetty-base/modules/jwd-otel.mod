[description]
jwd: OpenTelemetry's SDK for jwd's traces (org.jwd.telemetry.TracingSdk), configured by OpenTelemetry's own
settings (OTEL_* environment variables, -Dotel.* system properties): lib/otel/ of this base on the server's class
path, shared with the WAR, and started before the WAR is deployed. bin/jwd turns it on when the settings ask for
traces (OTEL_TRACES_EXPORTER other than none, or an OTLP endpoint), never with OpenTelemetry's Java agent attached,
which supplies OpenTelemetry itself.

[tags]
jwd

[depend]
jwd-classes
server

[lib]
lib/otel/*.jar

[xml]
etc/jwd-otel.xml
