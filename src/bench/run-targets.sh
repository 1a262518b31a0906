# src/bench/run-targets.sh - how src/bench/run starts its targets (the proxies, the gateway, the Terracotta server of
# jwd-cluster), waits until they are ready and checks that every JVM target runs with BENCH_JAVA_OPTS; sourced by
# src/bench/run.

# jwd, as every suite measures it (the idle suite starts it again for each measurement)
start_jwd() {
  JWD_JAVA_OPTS=$JAVA_OPTS JWD_JETTY_ARGS=$SUITE_JETTY_ARGS start jwd "$ROOT/bin/jwd" run --config "$OUT/jwd.properties" \
    --port "${PORT[jwd]}"
  PROCESS[jwd]=$LAST_PID
}

start_nginx() { # NAME
  local dir=$OUT/$1
  mkdir -p "$dir/tmp"
  nginx -t -q -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>&1 | sed 's/^/  /' >&2 \
    || die "nginx rejects $dir/nginx.conf"
  start "$1" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log"
}

# needed TARGET: whether TARGET is measured or a measured scenario's reference.
needed() {
  local scenario
  [[ " ${TARGETS[*]} " == *" $1 "* ]] && return 0
  for scenario in "${SCENARIOS[@]}"; do [[ ${REFERENCE[$scenario]} == "$1" ]] && return 0; done
  return 1
}

# The Terracotta server of jwd-cluster, from the Ehcache kit the build unpacks, as it-tests' TerracottaServer and
# bin/jwd cluster-demo start it: on loopback, auto-activated, its directories under $OUT/terracotta.
start_terracotta() {
  local kit dir=$OUT/terracotta java_home
  kit=$(compgen -G "$ROOT/src/demo/target/terracotta/*/server/bin/start-tc-server.sh" | head -n 1) \
    || die "jwd-cluster: no Terracotta kit under $ROOT/src/demo/target/terracotta (mvn package unpacks it)"
  java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  mkdir -p "$dir"
  JAVA_HOME=$java_home JAVA_OPTS="-Xms256m -Xmx512m" start terracotta "$kit" -cluster-name jwd-bench -auto-activate \
    -hostname 127.0.0.1 -bind-address 127.0.0.1 -group-bind-address 127.0.0.1 -port "$TC_PORT" \
    -group-port "$TC_GROUP_PORT" -offheap-resources main:256MB -config-dir "$dir/config" -log-dir "$dir/logs" \
    -metadata-dir "$dir/metadata" -data-dirs "main:$dir/data"
  TERRACOTTA=$LAST_PID
}

# jwd-cluster connects to its Terracotta server as it starts: a node that could not would serve from its own table
# and measure nothing of cluster mode.
check_cluster_connected() {
  if grep -q "not reachable at startup\|unreachable (" "$OUT/jwd-cluster.out" "$OUT/jwd-cluster.err"; then
    die "jwd-cluster: its Terracotta server was not reachable (logs: $OUT/jwd-cluster.err, $OUT/terracotta.out)"
  fi
  grep -q "Session table cluster .*: connected" "$OUT/jwd-cluster.out" "$OUT/jwd-cluster.err" \
    || die "jwd-cluster: no 'Session table cluster ...: connected' in its log ($OUT/jwd-cluster.err)"
}

# The gateway's classes and class path (src/bench/gateway, the root POM's profile gateway-bench): built when missing or
# older than its sources; the first build downloads Spring Boot and Spring Cloud.
ensure_gateway_built() {
  local dir=$ROOT/src/bench/gateway
  if [[ ! -f $dir/target/classpath.txt || ! -d $dir/target/classes \
        || -n $(find "$dir/src" "$dir/pom.xml" -newer "$dir/target/classpath.txt" -type f -print -quit) ]]; then
    log "building the gateway (mvn -P gateway-bench -pl src/bench/gateway package)..."
    (cd "$ROOT" && mvn -B -q -P gateway-bench -pl src/bench/gateway package -DskipTests) >&2 \
      || die "the gateway's build failed (src/bench/gateway)"
  fi
  cp -r "$dir/target/classes" "$OUT/gateway-classes"
}

# check_jvm_options TARGET: the target's JVM has every option it was given, or the run stops naming what is missing.
check_jvm_options() {
  local target=$1 opts=$JAVA_OPTS missing
  [[ $target != jwd-alt ]] || opts="$JAVA_OPTS ${BENCH_ALT_JAVA_OPTS:-}"
  [[ -n ${opts// /} ]] || return 0
  missing=$(analysis jvm-options "$(jvm_of "${PROCESS[$target]}")" "$opts")
  [[ -z $missing ]] || die "$target: its JVM runs without $missing of BENCH_JAVA_OPTS (command line: /proc/<pid>/cmdline)"
}

start_everything() {
  alloc_port B1; alloc_port B2; alloc_port TC_PORT; alloc_port TC_GROUP_PORT
  local target
  for target in "${ALL_TARGETS[@]}"; do
    [[ $target == direct ]] || alloc_port "PORT[$target]"
  done
  PORT[direct]=$B1
  write_configs

  # First: it takes half a minute or more to become active, and jwd-cluster starts only once it is
  if needed jwd-cluster || [[ $SUITE == cluster-capacity ]]; then start_terracotta; fi
  start_nginx nginx-backends
  local backends=$LAST_PID
  if needed nginx-rr || needed nginx-hash || needed nginx-tls; then
    start_nginx nginx-proxy
    PROCESS[nginx-rr]=$LAST_PID; PROCESS[nginx-hash]=$LAST_PID; PROCESS[nginx-tls]=$LAST_PID
  fi
  if needed haproxy-rr || needed haproxy-stick || needed haproxy-tls; then
    haproxy -c -q -f "$OUT/haproxy.cfg" >&2 || die "haproxy rejects $OUT/haproxy.cfg"
    start haproxy haproxy -db -f "$OUT/haproxy.cfg"
    PROCESS[haproxy-rr]=$LAST_PID; PROCESS[haproxy-stick]=$LAST_PID; PROCESS[haproxy-tls]=$LAST_PID
  fi
  local cp; cp=$(bench_classpath "$OUT/classes")
  if needed balancer; then
    # shellcheck disable=SC2086
    start balancer java $JAVA_OPTS -cp "$cp" org.jwd.bench.BalancerServletMain --port "${PORT[balancer]}" \
      --member "b1=http://127.0.0.1:$B1" --member "b2=http://127.0.0.1:$B2"
    PROCESS[balancer]=$LAST_PID
  fi
  if needed balancer-war; then
    write_balancer_war
    # As bin/jwd starts jwd: start.jar's command line (its modules' JVM options: jwd-logging's would have it fork a
    # second JVM without ours), then one JVM with the run's options.
    local jetty_command
    jetty_command=$(java -Djava.io.tmpdir="$OUT" -jar "$JETTY_HOME/start.jar" jetty.home="$JETTY_HOME" \
      jetty.base="$OUT/balancer-base" jetty.http.host=127.0.0.1 jetty.http.port="${PORT[balancer-war]}" \
      --dry-run=opts,path,main,args,envs) || die "Jetty's start.jar failed for balancer-war"
    eval "local jetty=($jetty_command)"
    # shellcheck disable=SC2086
    start balancer-war java $JAVA_OPTS -Djava.io.tmpdir="$OUT" -Djwd.war="$OUT/balancer-war" "${jetty[@]}"
    PROCESS[balancer-war]=$LAST_PID
  fi
  if needed jwd; then
    start_jwd
  fi
  if needed jwd-embedded; then
    # shellcheck disable=SC2086
    start jwd-embedded java $JAVA_OPTS -Djwd.config="$OUT/jwd.properties" -cp "$cp" org.jwd.bench.JwdEmbeddedMain \
      --port "${PORT[jwd-embedded]}"
    PROCESS[jwd-embedded]=$LAST_PID
  fi
  if needed gateway; then
    ensure_gateway_built
    # shellcheck disable=SC2086
    start gateway java $JAVA_OPTS -cp "$OUT/gateway-classes:$(cat "$ROOT/src/bench/gateway/target/classpath.txt")" \
      org.jwd.bench.gateway.GatewayMain --server.port="${PORT[gateway]}" \
      "--spring.cloud.discovery.client.simple.instances.backends[0].uri=http://127.0.0.1:$B1" \
      "--spring.cloud.discovery.client.simple.instances.backends[1].uri=http://127.0.0.1:$B2"
    PROCESS[gateway]=$LAST_PID
  fi
  for target in jwd-accesslog jwd-systems jwd-persistent jwd-modification; do
    if needed "$target"; then
      JWD_JAVA_OPTS=$JAVA_OPTS start "$target" "$ROOT/bin/jwd" run --config "$OUT/$target.properties" \
        --port "${PORT[$target]}"
      PROCESS[$target]=$LAST_PID
    fi
  done
  if needed jwd-tls; then
    { cat "$OUT/jwd.properties"; printf '%s\n' "jwd.ssl_keystore=$OUT/tls/jwd.p12" jwd.ssl_keystore_password=bench-only; } \
      > "$OUT/jwd-tls.properties"
    local http_port; alloc_port http_port
    JWD_JAVA_OPTS=$JAVA_OPTS start jwd-tls "$ROOT/bin/jwd" run --config "$OUT/jwd-tls.properties" --port "$http_port" \
      --https-port "${PORT[jwd-tls]}"
    PROCESS[jwd-tls]=$LAST_PID
  fi
  if needed jwd-alt; then
    # its own configuration: jwd's, each key of BENCH_ALT_PROPERTIES in place of jwd's line of it (jwd refuses a
    # key given twice)
    local property alt_config
    alt_config=$(cat "$OUT/jwd.properties")
    for property in ${BENCH_ALT_PROPERTIES:-}; do
      alt_config=$(grep -v -F -e "${property%%=*}=" <<< "$alt_config" || true)$'\n'$property
    done
    printf '%s\n' "$alt_config" > "$OUT/jwd-alt.properties"
    # shellcheck disable=SC2086
    JWD_JAVA_OPTS="$JAVA_OPTS ${BENCH_ALT_JAVA_OPTS:-}" JWD_JETTY_ARGS=${BENCH_ALT_JETTY_ARGS:-} \
      start jwd-alt env ${BENCH_ALT_ENV:-} "$ROOT/bin/jwd" run --config "$OUT/jwd-alt.properties" --port "${PORT[jwd-alt]}"
    PROCESS[jwd-alt]=$LAST_PID
  fi

  if needed jwd-cluster; then
    log "waiting for the Terracotta server to become active (about 30 s)"
    wait_ready terracotta "$TERRACOTTA" "$TC_PORT" "Moved to State\[ ACTIVE-COORDINATOR \]" 300
    JWD_JAVA_OPTS=$JAVA_OPTS start jwd-cluster "$ROOT/bin/jwd" run --config "$OUT/jwd-cluster.properties" \
      --port "${PORT[jwd-cluster]}"
    PROCESS[jwd-cluster]=$LAST_PID
  fi

  wait_ready nginx-backends "$backends" "$B1"
  wait_ready nginx-backends "$backends" "$B2"
  for target in "${ALL_TARGETS[@]}"; do
    [[ $target != direct ]] && needed "$target" || continue
    case $target in
      jwd|jwd-alt|jwd-accesslog|jwd-systems|jwd-persistent|jwd-modification|jwd-cluster)
        wait_ready "$target" "${PROCESS[$target]}" "${PORT[$target]}" "jwd: ready on" ;;
      gateway) wait_ready "$target" "${PROCESS[$target]}" "${PORT[$target]}" "Started GatewayMain" ;;
      jwd-tls) wait_ready "$target" "${PROCESS[$target]}" "${PORT[$target]}" "jwd: ready on https" ;;
      nginx-*) wait_ready nginx-proxy "${PROCESS[$target]}" "${PORT[$target]}" ;;
      haproxy-*) wait_ready haproxy "${PROCESS[$target]}" "${PORT[$target]}" ;;
      *) wait_ready "$target" "${PROCESS[$target]}" "${PORT[$target]}" ;;
    esac
  done
  if needed jwd-cluster; then check_cluster_connected; fi
  for target in "${JVM_TARGETS[@]}"; do
    if needed "$target"; then check_jvm_options "$target"; fi
  done
  [[ -z ${JAVA_OPTS// /} ]] || log "every JVM target runs with: $JAVA_OPTS"
}

url_of() {
  if [[ $1 == *-tls ]]; then echo "https://127.0.0.1:${PORT[$1]}$URL_PATH"; else echo "http://127.0.0.1:${PORT[$1]}$URL_PATH"; fi
}
