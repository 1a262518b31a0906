# jwd's own "resources" module, in the place of jetty-home's (which Jetty's logging module depends on): the
# directory is not put on the class path. bin/jwd passes the log levels of resources/jetty-logging.properties as
# system properties, which Jetty's logger reads as it would read the file; a directory on the class path would keep
# the JVM from archiving the classes it loads (class data sharing).

[description]
The $JETTY_BASE/resources directory, whose jetty-logging.properties bin/jwd passes as system properties.

[tags]
classpath

[files]
resources/
