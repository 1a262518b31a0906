# src/bench/run-configs.sh - the configurations src/bench/run writes under $OUT: the two nginx backends, nginx and HAProxy as
# load balancers, jwd (and its feature variants), the TLS certificate, the BalancerServlet WAR; sourced by src/bench/run.

write_configs() {
  # Thousands of connections (the connections suite) need more descriptors than a default limit gives: there, the
  # script has raised its limit to the hard one (20,000 or more), and HAProxy takes two per connection.
  local NGINX_LIMITS="" NGINX_CONNECTIONS=4096 HAPROXY_MAXCONN=4000 NGINX_KEEPALIVE=""
  if [[ $SUITE == connections ]]; then
    NGINX_LIMITS="worker_rlimit_nofile $(ulimit -n);" NGINX_CONNECTIONS=10000 HAPROXY_MAXCONN=9000
  fi
  if [[ $SUITE == idle ]]; then
    # a worker may get all the idle connections (nginx hands them out unevenly), and keeps them longer than a
    # measurement lasts (its default: 75 s)
    NGINX_LIMITS="worker_rlimit_nofile $(ulimit -n);" NGINX_KEEPALIVE="keepalive_timeout 600s;"
    NGINX_CONNECTIONS=$(( $(printf '%s\n' "${IDLE_COUNTS[@]}" | sort -n | tail -n 1) + 1000 ))
  fi
  mkdir -p "$OUT/nginx-backends" "$OUT/nginx-proxy"
  # About 1 KB of answer. A backend sets a session cookie when the request has none, as a Java server starts a
  # session; the id is fixed per backend so that no proxy's table grows with cookieless load (jwd learns it).
  local filler; filler=$(printf '%1000s' ''); filler=${filler// /x}
  local temp_paths='client_body_temp_path tmp/body; proxy_temp_path tmp/proxy; fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi; scgi_temp_path tmp/scgi;'
  cat > "$OUT/nginx-backends/nginx.conf" <<EOF
# The two backends of src/bench/run: fast, fixed answers that name the backend (X-Backend).
worker_processes auto;
$NGINX_LIMITS
daemon off;
pid $OUT/nginx-backends/nginx.pid;
error_log $OUT/nginx-backends/error.log warn;
events { worker_connections $NGINX_CONNECTIONS; }
http {
  access_log off;
  server_tokens off;
  keepalive_requests 1000000;
  default_type text/html;
  $temp_paths
  map \$cookie_JSESSIONID \$b1_session { "" "JSESSIONID=B1BENCHSESSION.b1; Path=/"; default ""; }
  map \$cookie_JSESSIONID \$b2_session { "" "JSESSIONID=B2BENCHSESSION.b2; Path=/"; default ""; }
  server {
    listen 127.0.0.1:$B1;
    location / {
      add_header X-Backend b1;
      add_header Set-Cookie \$b1_session;
      return 200 "backend b1 $filler\n";
    }
  }
  server {
    listen 127.0.0.1:$B2;
    location / {
      add_header X-Backend b2;
      add_header Set-Cookie \$b2_session;
      return 200 "backend b2 $filler\n";
    }
  }
}
EOF
  cat > "$OUT/nginx-proxy/nginx.conf" <<EOF
# nginx as the load balancer: round robin, and the consistent hash of the JSESSIONID cookie.
worker_processes auto;
$NGINX_LIMITS
daemon off;
pid $OUT/nginx-proxy/nginx.pid;
error_log $OUT/nginx-proxy/error.log warn;
events { worker_connections $NGINX_CONNECTIONS; }
http {
  access_log off;
  server_tokens off;
  keepalive_requests 1000000;
  $NGINX_KEEPALIVE
  $temp_paths
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Host \$host;
  proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
  proxy_set_header X-Forwarded-Proto \$scheme;
  upstream rr {
    server 127.0.0.1:$B1;
    server 127.0.0.1:$B2;
    keepalive 64;
    keepalive_requests 1000000;
  }
  upstream hash {
    hash \$cookie_JSESSIONID consistent;
    server 127.0.0.1:$B1;
    server 127.0.0.1:$B2;
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${PORT[nginx-rr]};
    location / { proxy_pass http://rr; }
  }
  server {
    listen 127.0.0.1:${PORT[nginx-hash]};
    location / { proxy_pass http://hash; }
  }
$(if needed nginx-tls; then cat <<TLS
  server {
    listen 127.0.0.1:${PORT[nginx-tls]} ssl http2;
    ssl_certificate $OUT/tls/cert.pem;
    ssl_certificate_key $OUT/tls/key.pem;
    location / { proxy_pass http://hash; }
  }
TLS
fi)
}
EOF
  cat > "$OUT/haproxy.cfg" <<EOF
# HAProxy as the load balancer: round robin, and a stick table on the JSESSIONID cookie.
global
  maxconn $HAPROXY_MAXCONN
defaults
  mode http
  option forwardfor
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend rr
  bind 127.0.0.1:${PORT[haproxy-rr]}
  default_backend rr
backend rr
  balance roundrobin
  server b1 127.0.0.1:$B1
  server b2 127.0.0.1:$B2
frontend stick
  bind 127.0.0.1:${PORT[haproxy-stick]}
$(if needed haproxy-tls; then echo "  bind 127.0.0.1:${PORT[haproxy-tls]} ssl crt $OUT/tls/haproxy.pem alpn h2,http/1.1"; fi)
  default_backend stick
backend stick
  balance roundrobin
  stick-table type string len 64 size 1m expire 10m
  stick on req.cook(JSESSIONID)
  server b1 127.0.0.1:$B1
  server b2 127.0.0.1:$B2
EOF
  if needed nginx-tls || needed haproxy-tls || needed jwd-tls; then make_certificate; fi
  cat > "$OUT/jwd.properties" <<EOF
# jwd for src/bench/run: the two backends as J2EE server processes, the temporary session table on.
server.b1.url=http://127.0.0.1:$B1
server.b1.type=j2ee
server.b2.url=http://127.0.0.1:$B2
server.b2.type=j2ee
SessionTableTimeout=10m
EOF
  write_feature_configs
  if [[ -n ${BENCH_JWD_ACCESS_LOG:-} ]]; then
    echo "icm/HTTP/logging_0=LOGFILE=$OUT/jwd-access.log, LOGFORMAT=$BENCH_JWD_ACCESS_LOG" >> "$OUT/jwd.properties"
  fi
}

# src/bench/run features: jwd's configuration with one feature on, one file per feature target.
write_feature_configs() {
  local dir=$OUT/features
  mkdir -p "$dir/persistent-table"
  cp "$ROOT/src/bench/src/main/resources/org/jwd/bench/typical-actions.txt" "$dir/"
  { cat "$OUT/jwd.properties"
    echo "icm/HTTP/logging_0=PREFIX=/, LOGFILE=$dir/access.log, LOGFORMAT=JWD"; } > "$OUT/jwd-accesslog.properties"
  { cat "$OUT/jwd.properties"; echo "SessionTable.disk_path=$dir/persistent-table"; } > "$OUT/jwd-persistent.properties"
  { cat "$OUT/jwd.properties"; echo "icm/HTTP/mod_0=PREFIX=/, FILE=$dir/typical-actions.txt"; } \
    > "$OUT/jwd-modification.properties"
  { cat "$OUT/jwd.properties"; echo "SessionTable.cluster_uri=terracotta://127.0.0.1:$TC_PORT/jwd-bench"; } \
    > "$OUT/jwd-cluster.properties"
  # With systems every server belongs to one: the load's /irj/ goes to PRT (b1, b2, as plain jwd's), and ERP's
  # /sap/ has servers of its own (the same two backends under other ids), so that each request is chosen among two.
  cat > "$OUT/jwd-systems.properties" <<EOF
# jwd for src/bench/run features: two systems, the load on the first
wdisp/system_0=SID=PRT, SRCURL=/irj/
wdisp/system_1=SID=ERP, SRCURL=/sap/
SessionTableTimeout=10m
system.PRT.server.b1.url=http://127.0.0.1:$B1
system.PRT.server.b1.type=j2ee
system.PRT.server.b2.url=http://127.0.0.1:$B2
system.PRT.server.b2.type=j2ee
system.ERP.server.e1.url=http://127.0.0.1:$B1
system.ERP.server.e1.type=j2ee
system.ERP.server.e2.url=http://127.0.0.1:$B2
system.ERP.server.e2.type=j2ee
EOF
}

# One self-signed certificate for 127.0.0.1, for every proxy that terminates TLS: PEM for nginx, key and
# certificate in one file for HAProxy, PKCS12 for jwd.
make_certificate() {
  mkdir -p "$OUT/tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$OUT/tls/key.pem" -out "$OUT/tls/cert.pem" \
    2> "$OUT/tls/openssl.err" || die "openssl could not make a certificate ($OUT/tls/openssl.err)"
  cat "$OUT/tls/cert.pem" "$OUT/tls/key.pem" > "$OUT/tls/haproxy.pem"
  openssl pkcs12 -export -in "$OUT/tls/cert.pem" -inkey "$OUT/tls/key.pem" -name jwd -passout pass:bench-only \
    -out "$OUT/tls/jwd.p12" 2>> "$OUT/tls/openssl.err" || die "openssl could not make $OUT/tls/jwd.p12"
}


# The BalancerServlet as a WAR in the Jetty distribution, deployed exactly as jwd's: a copy of the release's base (its
# start.d, modules, logging and graceful stop) with jwd's own context descriptor (webapps/jwd.xml, which takes the WAR
# from -Djwd.war).
write_balancer_war() {
  local war=$OUT/balancer-war base=$OUT/balancer-base
  mkdir -p "$war" "$base/webapps" "$base/start.d"
  # The libraries jwd's WAR carries from Jetty (the proxy, the client) and SLF4J, so that the two WARs load the
  # same Jetty classes the same way.
  unzip -q -o "$WAR" 'WEB-INF/lib/jetty-*.jar' 'WEB-INF/lib/slf4j-*.jar' -d "$war" \
    || die "cannot take Jetty's libraries from $WAR"
  cat > "$war/WEB-INF/web.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
  <servlet>
    <servlet-name>balancer</servlet-name>
    <servlet-class>org.eclipse.jetty.ee10.proxy.BalancerServlet</servlet-class>
    <init-param><param-name>stickySessions</param-name><param-value>true</param-value></init-param>
    <init-param><param-name>balancerMember.b1.proxyTo</param-name><param-value>http://127.0.0.1:$B1</param-value></init-param>
    <init-param><param-name>balancerMember.b2.proxyTo</param-name><param-value>http://127.0.0.1:$B2</param-value></init-param>
    <load-on-startup>1</load-on-startup>
    <async-supported>true</async-supported>
  </servlet>
  <servlet-mapping><servlet-name>balancer</servlet-name><url-pattern>/*</url-pattern></servlet-mapping>
</web-app>
EOF
  # The distribution's whole base: its modules (jwd-stop, jwd-logging) need their libraries and XML beside them.
  cp -r "$DIST/jetty-base/." "$base/"
}
