# jwd's own logging module, in the place of Jetty's logging-jetty (the default) and logging-logback (which would
# fetch Logback from Maven Central at its first start: the distribution brings it and needs no network).

[description]
jwd: the log through Logback (lib/logback/ of this base) as configured by resources/logback.xml: text on standard
error by default, one JSON object a line with JWD_LOG_FORMAT=json. The WAR logs through it too
(webapps/jwd.xml shares SLF4J and Logback with it): one log for every class, whose levels the administration sets
while jwd runs.

[tags]
logging
jwd

[provides]
logging

[depends]
logging/slf4j

[lib]
lib/logback/*.jar

[ini]
jetty.webapp.addHiddenClasses+=,ch.qos.logback.

[exec]
-Dlogback.configurationFile=${jetty.base}/resources/logback.xml
