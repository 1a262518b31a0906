# bench/lib.sh - what bench/run and bench/soak share; sourced by them, after they set ROOT and BENCH_NAME
# (the prefix of their messages).

log() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
die() { printf '%s: FAILED: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

# The Jetty version the WAR is built against and bin/jwd runs: the pom's jetty.version, its one place.
JETTY_VERSION=$(sed -n 's:.*<jetty.version>\(.*\)</jetty.version>.*:\1:p' "$ROOT/pom.xml")
[[ -n $JETTY_VERSION ]] || die "no <jetty.version> in $ROOT/pom.xml"
JETTY_HOME=$ROOT/target/jetty-home/jetty-home-$JETTY_VERSION

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

# ensure_built FILE...: builds jwd (mvn package, tests skipped) when the WAR, the test class path or one of these
# files is missing, or a source is newer than the WAR.
ensure_built() {
  local war=$ROOT/target/jwd.war file missing=false
  for file in "$war" "$ROOT/target/test-classpath.txt" "$JETTY_HOME/start.jar" "$@"; do
    [[ -f $file ]] || missing=true
  done
  if $missing || [[ -n $(find "$ROOT/src" "$ROOT/it-tests" "$ROOT/webapp" "$ROOT/pom.xml" -newer "$war" -type f \
                          -print -quit) ]]; then
    log "building jwd (mvn package, tests skipped)..."
    (cd "$ROOT" && mvn -B -q package -DskipTests) >&2 || die "the build failed"
    # Maven leaves an archive untouched when its content is unchanged: mark it as built now, and the AppCDS archive
    # made from it after it (bin/jwd run uses only an archive newer than the WAR).
    touch "$war"
    [[ ! -f $ROOT/target/jwd.jsa ]] || touch "$ROOT/target/jwd.jsa"
  fi
}
