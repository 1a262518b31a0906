[description]
jwd: what Jetty's start came to, for bin/jwd (org.jwd.launch.StartReport): "jwd: ready on http://host:port/"
per listener once the server has started with the WAR deployed and available, or the configuration's problems
when it did not start; then what earlier runs kept in the work directory and no run needs goes
(org.jwd.launch.WorkDirectory). bin/jwd always turns it on.

[tags]
jwd

[depend]
jwd-classes
server

[xml]
etc/jwd-launcher.xml
