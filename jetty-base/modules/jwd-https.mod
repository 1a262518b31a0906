[description]
jwd: HTTPS termination. Jetty's TLS connector with HTTP/1.1 and, over ALPN, HTTP/2; its keystore comes from
the jwd configuration (module jwd-ssl-context). bin/jwd turns it on when the configuration names a keystore
(jwd.ssl_keystore); --https-port sets jetty.ssl.port, --host jetty.ssl.host.

[tags]
connector
ssl
jwd

[depend]
jwd-ssl-context
ssl
https
http2
