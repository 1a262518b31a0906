[description]
jwd: Jetty's TLS server (the SslContextFactory that Jetty's ssl module uses) made from the jwd configuration
(system property jwd.config) for the first HTTPS listener's line (jwd.https_line): its SSL configuration's keys,
chosen by the name a client asks for (SNI), renewed when their files change, TLS 1.2 and 1.3 only, no weak cipher
suites. It takes the place of Jetty's ssl-context module, whose jetty.sslContext.* properties do not apply.

[tags]
ssl
jwd

[provides]
ssl-context

[depend]
jwd-classes
server

[xml]
etc/jwd-ssl-context.xml
