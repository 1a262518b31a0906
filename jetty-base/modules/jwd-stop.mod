[description]
jwd: a stop that no client behind a load balancer notices (org.jwd.launch.GracefulStop), in the place of Jetty's
graceful module: on SIGTERM the node serves on for jwd.stop_delay, each answer closing its connection, while
/jwd/health/ready answers 503; then the listeners close and the requests in flight get jetty.server.stopTimeout
(jwd.stop_timeout) to finish. A request arriving on an open connection meanwhile is served, not refused.

[tags]
jwd

[depend]
jwd-classes
server

[xml]
etc/jwd-stop.xml
