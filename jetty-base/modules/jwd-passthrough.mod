[description]
jwd: end-to-end TLS (SAP's PROT=ROUTER). A listener on wdisp/HTTPS/port that never decrypts and hands
each TLS connection to an HTTPS-enabled server of the jwd configuration (system property jwd.config).
bin/jwd turns it on when the configuration sets wdisp/HTTPS/port.

[tags]
connector
jwd

[depend]
jwd-classes
server

[after]
http
https

[xml]
etc/jwd-passthrough.xml
