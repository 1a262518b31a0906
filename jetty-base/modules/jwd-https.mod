[description]
jwd: HTTPS termination. Jetty's TLS connector with HTTP/1.1 and, over ALPN, HTTP/2, and one more like it for each
further PROT=HTTPS line (jwd.https_listeners); each presents its line's SSL configuration from the jwd configuration
(module jwd-ssl-context). bin/jwd turns it on when the configuration has something to present (jwd.ssl_keystore, or
an icm/server_port_<xx> line with its SSLCONFIG); --https-port sets jetty.ssl.port, --host jetty.ssl.host.

[tags]
connector
ssl
jwd

[depend]
jwd-ssl-context
ssl
https
http2

[xml]
etc/jwd-https.xml
