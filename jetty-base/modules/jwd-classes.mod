[description]
jwd: the server-level classes (jwd-server, the jwd core and its libraries, lib/jwd/ of this base) on the server's
class path, for the other jwd modules: what Jetty loads outside the WAR.

[tags]
jwd

[depend]
server

[lib]
lib/jwd/*.jar
