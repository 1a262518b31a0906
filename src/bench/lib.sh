# src/bench/lib.sh - what src/bench/run and src/bench/soak share; sourced by them, after they set ROOT and BENCH_NAME
# (the prefix of their messages).

log() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
die() { printf '%s: FAILED: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

# The distribution the build unpacks (what bin/jwd runs), the Jetty in it and its WAR; the benchmarks' classes.
JETTY_VERSION=$(sed -n 's:.*<jetty.version>\(.*\)</jetty.version>.*:\1:p' "$ROOT/pom.xml")
[[ -n $JETTY_VERSION ]] || die "no <jetty.version> in $ROOT/pom.xml"
JWD_VERSION=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$ROOT/pom.xml")
DIST=$ROOT/src/dist/target/jwd-$JWD_VERSION
JETTY_HOME=$DIST/jetty-home-$JETTY_VERSION
WAR=$DIST/lib/jwd.war
BENCH_CLASSES=$ROOT/src/bench/target/classes

# The benchmarks' class path: their classes first (PREFIX, a copy of them, when given), then their libraries (jwd's
# core and webapp classes, the demo backends, Jetty, JMH).
bench_classpath() {
  echo "${1:-$BENCH_CLASSES}:$(cat "$ROOT/src/bench/target/classpath.txt")"
}

# check_whole_numbers PREFIX SETTING:VARIABLE...: each variable holds a whole number, or the run stops naming
# the setting (PREFIX_SETTING) and its value.
check_whole_numbers() {
  local prefix=$1 setting name; shift
  for setting in "$@"; do
    name=${setting#*:}
    [[ ${!name} =~ ^[0-9]+$ ]] || die "${prefix}_${setting%%:*}='${!name}': expected a whole number"
  done
}

is_listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# alloc_port VAR: the next port from NEXT_PORT on that nothing listens on (the caller sets NEXT_PORT first).
alloc_port() {
  while is_listening "$NEXT_PORT"; do NEXT_PORT=$((NEXT_PORT + 1)); done
  printf -v "$1" '%s' "$NEXT_PORT"
  NEXT_PORT=$((NEXT_PORT + 1))
}

# ensure_built FILE...: builds jwd (mvn package, tests skipped) when the distribution, the benchmarks' class path or
# one of these files is missing, or a source is newer than the distribution.
ensure_built() {
  local stamp=$DIST.tar.gz file missing=false
  for file in "$stamp" "$WAR" "$ROOT/src/bench/target/classpath.txt" "$JETTY_HOME/start.jar" "$@"; do
    [[ -f $file ]] || missing=true
  done
  if $missing || [[ -n $(find "$ROOT"/{src/core,src/server,webapp,src/demo,src/dist,src/bench}/src "$ROOT"/{src/*,webapp}/pom.xml "$ROOT/pom.xml" \
                          "$ROOT/jetty-base" -newer "$stamp" -type f -print -quit) ]]; then
    log "building jwd (mvn package, tests skipped)..."
    (cd "$ROOT" && mvn -B -q package -DskipTests) >&2 || die "the build failed"
  fi
}

# The Terracotta server of the cluster runs (soak --chaos, rolling-restart): the kit the build unpacks
# (src/demo/target/terracotta), its launcher in a process group of its own (setsid), so that a kill reaches its JVM
# too; the group's id is kept in $OUT/terracotta.pid. The caller sets OUT, TC_KIT (terracotta_kit), TC_PORT and
# TC_GROUP_PORT; terracotta_start N writes $OUT/terracotta-N.log and returns once the server is ACTIVE (about 30 s).
terracotta_kit() {
  find "$ROOT/src/demo/target/terracotta" -maxdepth 1 -name 'ehcache-clustered-*-kit' -type d 2>/dev/null | head -n 1
}

terracotta_start() {
  local n=$1 tries=0
  mkdir -p "$OUT/terracotta"
  JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")} JAVA_OPTS="-Xms64m -Xmx512m" \
    setsid "$TC_KIT/server/bin/start-tc-server.sh" -cluster-name "jwd-$BENCH_NAME" -auto-activate -hostname 127.0.0.1 \
    -bind-address 127.0.0.1 -group-bind-address 127.0.0.1 -port "$TC_PORT" -group-port "$TC_GROUP_PORT" \
    -offheap-resources main:512MB -config-dir "$OUT/terracotta/config" -log-dir "$OUT/terracotta/logs" \
    -metadata-dir "$OUT/terracotta/metadata" -data-dirs "main:$OUT/terracotta/data" \
    > "$OUT/terracotta-$n.log" 2>&1 &
  echo $! > "$OUT/terracotta.pid"
  disown $!  # its SIGKILL at the end is no news
  until grep -q "Moved to State\[ ACTIVE-COORDINATOR \]" "$OUT/terracotta-$n.log" 2>/dev/null; do
    (( tries++ < 1800 )) || { echo "the Terracotta server is not ACTIVE after 180 s ($OUT/terracotta-$n.log)"; return 1; }
    sleep 0.1
  done
}

terracotta_stop() {
  local pid
  [[ -f ${OUT:-/nonexistent}/terracotta.pid ]] || return 0
  pid=$(cat "$OUT/terracotta.pid")
  # only a process group that still runs the kit's server (a pid may have been reused)
  if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q "start-tc-server"; then
    kill -KILL -- "-$pid" 2>/dev/null
  fi
  rm -f "$OUT/terracotta.pid"
}
