# jwd's own "resources" module, in the place of jetty-home's (which Jetty's logging modules depend on): the
# directory is not put on the class path. Logback reads resources/logback.xml from the path module jwd-logging gives
# it (-Dlogback.configurationFile); a directory on the class path would keep the JVM from archiving the classes it
# loads (class data sharing).

[description]
The $JETTY_BASE/resources directory, whose logback.xml configures jwd's log (module jwd-logging).

[tags]
classpath

[files]
resources/
