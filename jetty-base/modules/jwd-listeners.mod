[description]
jwd: one more plain HTTP listener per port that an SRCSRV item of the configuration's wdisp/system_<xx> entries
names, beside --port and the HTTPS ports (org.jwd.launch.SystemListenerConnectors), each like the http module's
connector. bin/jwd turns it on when org.jwd.launch.JettyModules names such listeners, and passes them as
jwd.listeners=<address>:<port>,...

[tags]
connector
jwd

[depend]
jwd-classes
http

[xml]
etc/jwd-listeners.xml
