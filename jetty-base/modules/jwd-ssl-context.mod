[description]
jwd: Jetty's TLS server (the SslContextFactory that Jetty's ssl module uses) made from the jwd configuration
(system property jwd.config): the keystore jwd.ssl_keystore with its password, TLS 1.2 and 1.3 only, no weak
cipher suites. It takes the place of Jetty's ssl-context module, whose jetty.sslContext.* properties do not apply.

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
