# src/bench/run-suites.sh - what src/bench/run does besides its rounds: profiles, system-call counts, and the suites cold and
# connections; sourced by src/bench/run.

# Profiles: async-profiler attached to a running JVM target through jcmd, one event at a time, under sticky load.
ASYNC_PROFILER_VERSION=4.2
ASYNC_PROFILER=$ROOT/target/async-profiler-$ASYNC_PROFILER_VERSION/libasyncProfiler.so

ensure_profiler() {
  [[ -f $ASYNC_PROFILER ]] && return 0
  local jar=$HOME/.m2/repository/tools/profiler/async-profiler/$ASYNC_PROFILER_VERSION/async-profiler-$ASYNC_PROFILER_VERSION.jar
  if [[ ! -f $jar ]]; then
    log "fetching async-profiler $ASYNC_PROFILER_VERSION from Maven Central"
    mvn -B -q dependency:get -Dartifact="tools.profiler:async-profiler:$ASYNC_PROFILER_VERSION" -Dtransitive=false >&2 \
      || die "cannot fetch tools.profiler:async-profiler:$ASYNC_PROFILER_VERSION"
  fi
  mkdir -p "$(dirname "$ASYNC_PROFILER")"
  unzip -q -o -j "$jar" linux-x64/libasyncProfiler.so -d "$(dirname "$ASYNC_PROFILER")" \
    || die "no linux-x64/libasyncProfiler.so in $jar"
}

# jvm_of PID: the JVM at or below PID (bin/jwd is a shell that runs java).
jvm_of() {
  local pid=$1
  while [[ $(ps -o comm= -p "$pid") != java ]]; do
    pid=$(pgrep -P "$pid" | head -n 1) || die "no JVM below process $1"
  done
  echo "$pid"
}

# profiler PID ACTION: one async-profiler command; the options inside double quotes, or jcmd splits them at '='.
profiler() {
  jcmd "$1" JVMTI.agent_load "$ASYNC_PROFILER" "\"$2\"" > /dev/null || die "async-profiler: '$2' failed on pid $1"
}

profile_target() { # TARGET [NAME [EVENTS]]: NAME [TARGET] names the files; EVENTS [cpu alloc lock] in this order
  local target=$1 name=${2:-$1} events=${3:-cpu alloc lock} jvm event dir=$OUT/profiles
  jvm=$(jvm_of "${PROCESS[$target]}")
  mkdir -p "$dir"
  local -A options=([cpu]="event=cpu,interval=1ms" [alloc]="event=alloc" [lock]="event=lock")
  for event in $events; do
    profiler "$jvm" "start,${options[$event]}"
    run_wrk "$target" 2 "$PROFILE" "$dir/$name-$event.wrk.txt"
    profiler "$jvm" "dump,file=$dir/$name-$event.html"
    profiler "$jvm" "stop,file=$dir/$name-$event.collapsed,collapsed,total"
  done
  log "profiled $target ($events): $dir/$name-<event>.{collapsed,html}"
}

# ---------------------------------------------------------------------------------------------------------------
# System calls: perf stat on a target's processes while the sticky load runs.
tree_pids() { # PID: PID and all its descendants (nginx's workers, the JVM below bin/jwd), comma-separated
  local pids=$1 todo=("$1") child
  while (( ${#todo[@]} > 0 )); do
    for child in $(pgrep -P "${todo[0]}"); do pids+=,$child; todo+=("$child"); done
    todo=("${todo[@]:1}")
  done
  echo "$pids"
}

count_syscalls() { # TARGET
  local target=$1 out=$OUT/syscalls/$1
  mkdir -p "$OUT/syscalls"
  perf stat -x, -o "$out.perf.txt" -e "$(analysis perf-events)" -p "$(tree_pids "${PROCESS[$target]}")" &
  PERF_PID=$!
  run_wrk "$target" 2 "$SYSCALLS" "$out.wrk.txt"
  # perf stat prints its counts when interrupted, and then exits non-zero: the analysis judges its output
  kill -INT "$PERF_PID"
  wait "$PERF_PID" || true
  PERF_PID=""
  log "$(analysis syscalls "$target" "$out.perf.txt" "$out.wrk.txt" "$OUT/syscalls.tsv")"
}

# ---------------------------------------------------------------------------------------------------------------
# The cold suite: jwd started afresh for each measurement, the sticky load from the moment it says it is ready.
cold_variant() { # VARIANT: sets VARIANT_APPCDS and VARIANT_JAVA_OPTS, bin/jwd's JWD_CDS and JWD_JAVA_OPTS
  VARIANT_APPCDS=1 VARIANT_JAVA_OPTS=$JAVA_OPTS
  case $1 in
    appcds) ;;
    no-appcds) VARIANT_APPCDS=0 ;;
    alt) VARIANT_JAVA_OPTS="$JAVA_OPTS ${BENCH_ALT_JAVA_OPTS:-}" ;;
    *) die "BENCH_COLD_VARIANTS: unknown variant '$1' (known: appcds no-appcds alt)" ;;
  esac
}

cold_start() { # ROUND VARIANT
  local round=$1 variant=$2 name=cold-r$1-$2 port started ready
  local out=$OUT/wrk/$name.txt
  alloc_port port
  cold_variant "$variant"
  started=$(date +%s.%N)
  JWD_CDS=$VARIANT_APPCDS JWD_JAVA_OPTS=$VARIANT_JAVA_OPTS start "$name" "$ROOT/bin/jwd" run \
    --config "$OUT/jwd.properties" --port "$port"
  local pid=$LAST_PID tries=0
  until grep -q "jwd: ready on" "$OUT/$name.out"; do
    kill -0 "$pid" 2>/dev/null || die "jwd exited while starting (logs in $OUT/$name.err)"
    (( tries++ < 6000 )) || die "jwd is not ready after 300 s (logs in $OUT/$name.err)"
    sleep 0.05
  done
  ready=$(date +%s.%N)
  echo "$started $ready" > "$OUT/wrk/$name.epochs"
  PORT[cold]=$port
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${COLD_SECONDS}s" --latency -s "$ROOT/src/bench/wrk-sticky.lua" \
    "$(url_of cold)" -- "$((SESSIONS / THREADS))" timeline > "$out" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || true
  WRK_PID=""
  kill -TERM "$pid"; wait "$pid" || true
  # A round without its figure would leave the table silently short: the run stops naming it.
  local figure
  figure=$(analysis cold "$round" "$variant" "$started" "$ready" "$out" "$OUT/cold.tsv") \
    || die "cold-$variant, round $round: no figure from its wrk timeline (above; $out)"
  log "$figure"
  # and wrk's summary, so that a start that answered nothing fails the run (the verdict)
  analysis record "$round" "$ROUNDS" 2 "cold-$variant" "$out" "$OUT/results.tsv" > /dev/null
}

run_cold() {
  local variants=(${BENCH_COLD_VARIANTS:-appcds no-appcds}) variant round i
  for variant in "${variants[@]}"; do cold_variant "$variant"; done
  if ! compgen -G "$DIST/work/jwd-*" > /dev/null; then
    # bin/jwd's first run records the archive the appcds variant maps: one start that is not measured
    log "no class-data archive under $DIST/work yet: one unmeasured start makes it"
    cold_start 0 appcds
  fi
  log "cold starts: ${#variants[@]} variants x $ROUNDS rounds x about $((COLD_SECONDS + 10)) s"
  for ((round = 1; round <= ROUNDS; round++)); do
    for ((i = 0; i < ${#variants[@]}; i++)); do
      cold_start "$round" "${variants[(i + round - 1) % ${#variants[@]}]}"
    done
  done
  {
    echo "## jwd cold start (src/bench/run cold)"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); jwd $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "- machine: $CPUS CPUs; load average at the end $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -n 1)"
    echo "- load: from jwd's ready line, wrk -t$THREADS -c$CONNECTIONS -d${COLD_SECONDS}s, sticky clients ($SESSIONS sessions); rounds: $ROUNDS, interleaved; medians shown"
    echo "- variants: appcds = bin/jwd run as it is (the archive of its first run); no-appcds = JWD_CDS=0; alt = appcds with BENCH_ALT_JAVA_OPTS='${BENCH_ALT_JAVA_OPTS:-}'"
    echo "- JVM options of every variant: BENCH_JAVA_OPTS='$JAVA_OPTS'"
    [[ ! -f $OUT/cold.tsv ]] || analysis cold-report "$OUT/cold.tsv" "${variants[*]}"
  } | tee "$OUT/cold.md"
  local expected=()
  for variant in "${variants[@]}"; do expected+=("2:cold-$variant"); done
  verdict "${expected[@]}"
}

# ---------------------------------------------------------------------------------------------------------------
# The connections suite: the sticky scenario at several counts of keep-alive connections, with each proxy's memory.
measure_connections() { # ROUND COUNT TARGET
  local round=$1 CONNECTIONS=$2 target=$3 cpu=()
  local label=$target@$2 out=$OUT/wrk/r$1-$3-c$2.txt
  (( WARMUP == 0 )) || run_wrk "$target" 2 "$WARMUP" "$OUT/wrk/r$1-$3-c$2.warmup.txt"
  cpu=("${PROCESS[$target]}" "$(analysis cpu "${PROCESS[$target]}")")
  # wrk's own timeout (2 s) would count a slow answer at 4,000 connections as an error: 10 s, so that it shows as
  # latency and only a request left unanswered is an error.
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s "$ROOT/src/bench/wrk-sticky.lua" \
    "$(url_of "$target")" -- "$((SESSIONS / THREADS))" > "$out" 2>&1 &
  WRK_PID=$!
  # The memory while every connection is open and busy: two thirds into the run.
  sleep "$((DURATION * 2 / 3))"
  analysis rss "$round" "$target" "$CONNECTIONS" "${PROCESS[$target]}" "$OUT/rss.tsv"
  wait "$WRK_PID" || true
  WRK_PID=""
  log "$(analysis record "$round" "$ROUNDS" 2 "$label" "$out" "$OUT/results.tsv" "${cpu[@]}")"
}

run_connections() {
  local round count i labels=()
  for target in "${TARGETS[@]}"; do
    for count in "${CONNECTION_COUNTS[@]}"; do labels+=("$target@$count"); done
  done
  if (( FIRST_WARMUP > 0 )); then
    log "warming up the JVM targets (${FIRST_WARMUP} s)"
    for target in "${JVM_TARGETS[@]}"; do
      if [[ " ${TARGETS[*]} " == *" $target "* ]]; then
        run_wrk "$target" 2 "$FIRST_WARMUP" "$OUT/wrk/first-warmup-$target.txt"
      fi
    done
  fi
  log "measuring: ${#TARGETS[@]} targets x ${#CONNECTION_COUNTS[@]} connection counts x $ROUNDS rounds x ($WARMUP + $DURATION) s"
  for ((round = 1; round <= ROUNDS; round++)); do
    for count in "${CONNECTION_COUNTS[@]}"; do
      for ((i = 0; i < ${#TARGETS[@]}; i++)); do
        measure_connections "$round" "$count" "${TARGETS[(i + round - 1) % ${#TARGETS[@]}]}"
      done
    done
  done
  {
    echo "## jwd with many connections (src/bench/run connections)"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); jwd $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "- machine: $CPUS CPUs; load average at the end $(cut -d' ' -f1-3 /proc/loadavg); descriptors: $(ulimit -n)"
    echo "- JVM targets ($(jvm_targets_measured)): BENCH_JAVA_OPTS='$JAVA_OPTS'"
    echo "- load: wrk -t$THREADS -c<count> -d${DURATION}s --latency, sticky clients ($SESSIONS sessions), $WARMUP s warm-up before each; rounds: $ROUNDS, interleaved; medians shown"
    # The reference: jwd at the fewest connections, when jwd is measured (its rate at 4,000 against its own at 64).
    local reference=${TARGETS[0]}
    [[ " ${TARGETS[*]} " != *" jwd "* ]] || reference=jwd
    analysis report "$OUT/results.tsv" "${labels[*]}" none none "$reference@${CONNECTION_COUNTS[0]}" \
      "sticky clients at ${CONNECTION_COUNTS[*]} connections (target@connections)"
    # Round by round, each target against itself at the other counts (not every pair of labels: 36 for 3 x 3).
    local target counts
    for target in "${TARGETS[@]}"; do
      counts=(); for count in "${CONNECTION_COUNTS[@]}"; do counts+=("$target@$count"); done
      analysis pairs "$OUT/results.tsv" "${counts[*]}"
    done
    echo
    echo "Resident memory of each proxy's processes, two thirds into the run (median over the rounds):"
    analysis rss-report "$OUT/rss.tsv" "${TARGETS[*]}"
  } | tee "$OUT/table.md"
  if (( PROFILE > 0 )); then
    # The JVM targets profiled at every count, so that what grows with the connections shows side by side.
    log "profiling the JVM targets: cpu, alloc, lock, $PROFILE s each, sticky load at ${CONNECTION_COUNTS[*]} connections"
    # Each event at every count before the next event: a cpu profile started after a lock profile in the same
    # JVM still records lock waits (async-profiler 4.2), so lock comes last.
    local event
    for target in "${JVM_TARGETS[@]}"; do
      [[ " ${TARGETS[*]} " == *" $target "* ]] || continue
      for event in cpu alloc lock; do
        for count in "${CONNECTION_COUNTS[@]}"; do
          CONNECTIONS=$count profile_target "$target" "$target@$count" "$event"
        done
      done
    done
    analysis profiles "$OUT/profiles" | tee "$OUT/profiles/profile-summary.md"
  fi
  local expected=()
  for target in "${TARGETS[@]}"; do
    for count in "${CONNECTION_COUNTS[@]}"; do expected+=("2:$target@$count"); done
  done
  verdict "${expected[@]}"
}

# ---------------------------------------------------------------------------------------------------------------
# The idle suite: per measurement the target started afresh, warmed up, then thousands of keep-alive connections
# held open after one request each (org.jwd.bench.IdleConnectionsMain), and the target's memory once it settled.
idle_restart() { # TARGET: stops the target's process and starts it again, ready, on its port
  local target=$1
  kill -TERM "${PROCESS[$target]}" 2>/dev/null || true
  await_stop "${PROCESS[$target]}" || true
  case $target in
    jwd)
      start_jwd
      wait_ready jwd "${PROCESS[jwd]}" "${PORT[jwd]}" "jwd: ready on"
      check_jvm_options jwd ;;
    nginx-rr|nginx-hash)
      start_nginx nginx-proxy
      PROCESS[nginx-rr]=$LAST_PID; PROCESS[nginx-hash]=$LAST_PID
      wait_ready nginx-proxy "$LAST_PID" "${PORT[$target]}" ;;
    *) die "idle: cannot start $target afresh" ;;
  esac
}

measure_idle() { # ROUND COUNT TARGET
  local round=$1 count=$2 target=$3 name=r$1-$3-c$2 client status sample=() histogram=()
  local dir=$OUT/idle
  idle_restart "$target"
  # A few seconds of sticky load, as in service: the JIT, the pools, the session table; recorded, so that a target
  # that answered nothing fails the run.
  run_wrk "$target" 2 "$WARMUP" "$OUT/wrk/$name.warmup.txt"
  analysis record "$round" "$ROUNDS" 2 "$target@$count" "$OUT/wrk/$name.warmup.txt" "$OUT/results.tsv" > /dev/null
  status=$dir/$name.status
  start "idle-$name" java -Xmx128m -cp "$(bench_classpath "$OUT/classes")" org.jwd.bench.IdleConnectionsMain \
    --url "$(url_of "$target")" --connections "$count" --rate "$IDLE_RATE" --sticky --answer-timeout 120s \
    --status "$status"
  client=$LAST_PID
  # The answer timeout is generous: on a loaded machine a JVM's first answers to a thousand new connections a second
  # queue up (30 s were not enough at load 21), and what is measured is the memory of held connections, not how
  # fast they are opened.
  local tries=0 limit=$(( (count / IDLE_RATE + 150) * 10 ))
  until grep -qs '^ready:' "$OUT/idle-$name.out"; do
    kill -0 "$client" 2>/dev/null || die "idle: the client of $target@$count ended early ($OUT/idle-$name.err)"
    (( tries++ < limit )) || die "idle: $target@$count: the client's connections did not settle in $((limit / 10)) s ($status)"
    sleep 0.1
  done
  log "$target@$count, round $round: $(sed 's/^ready: //' "$OUT/idle-$name.out")"
  read -ra sample <<< "$(analysis idle-settle "${PROCESS[$target]}" "$IDLE_SETTLE")"
  cp "$status" "$status.sample"
  echo "$target@$count r$round $(cut -d' ' -f1-3 /proc/loadavg)" >> "$dir/loadavg.txt"
  (( ${sample[1]} <= IDLE_SETTLE )) && [[ ${sample[2]} == settled ]] \
    || log "$target@$count, round $round: resident memory still moving by 1 % or more after $IDLE_SETTLE s"
  if [[ " ${JVM_TARGETS[*]} " == *" $target "* ]]; then
    local jvm; jvm=$(jvm_of "${PROCESS[$target]}")
    # A JVM given -XX:NativeMemoryTracking=summary (BENCH_JAVA_OPTS) says where its memory is: heap, threads, ...
    if tr '\0' ' ' < "/proc/$jvm/cmdline" | grep -q 'NativeMemoryTracking=summary'; then
      jcmd "$jvm" VM.native_memory summary > "$dir/$name.nmt.txt" || log "idle: jcmd VM.native_memory failed on $target"
    fi
    # after the memory was read: the histogram's full GC may give some of it back
    jcmd "$jvm" GC.class_histogram > "$dir/$name.histogram.txt" \
      || die "idle: jcmd GC.class_histogram failed on $target ($dir/$name.histogram.txt)"
    histogram=("$dir/$name.histogram.txt")
  fi
  kill -TERM "$client"
  await_stop "$client" || true   # a JVM ended by SIGTERM exits 143
  log "$(analysis idle-record "$round" "$target" "${sample[0]}" "$status.sample" "$status" "$dir/idle.tsv" \
    ${histogram[@]+"${histogram[@]}"}), settled after ${sample[1]} s"
}

run_idle() {
  local round count i
  mkdir -p "$OUT/idle"
  log "measuring: ${#TARGETS[@]} targets x ${#IDLE_COUNTS[@]} counts (${IDLE_COUNTS[*]}) x $ROUNDS rounds, each target started afresh"
  for ((round = 1; round <= ROUNDS; round++)); do
    for count in "${IDLE_COUNTS[@]}"; do
      for ((i = 0; i < ${#TARGETS[@]}; i++)); do
        measure_idle "$round" "$count" "${TARGETS[(i + round - 1) % ${#TARGETS[@]}]}"
      done
    done
  done
  {
    echo "## jwd with idle keep-alive connections (src/bench/run idle)"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); jwd $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "- machine: $CPUS CPUs; load average (1 min) when the memory was read: $(awk '{ print $3 }' "$OUT/idle/loadavg.txt" | sort -n | sed -n '1p;$p' | paste -sd-); at the end $(cut -d' ' -f1-3 /proc/loadavg); descriptors: $(ulimit -n)"
    echo "- JVM targets ($(jvm_targets_measured)): BENCH_JAVA_OPTS='$JAVA_OPTS'"
    echo "- each measurement: the target started afresh, $WARMUP s of wrk -t$THREADS -c$CONNECTIONS (sticky clients), then org.jwd.bench.IdleConnectionsMain opens the connections at $IDLE_RATE/s, one GET $URL_PATH with a JSESSIONID of its own on each, and holds them idle; the resident memory of the target's processes once it changed < 1 % over 5 s ($IDLE_SETTLE s at most), then a JVM's live heap after a full GC (jcmd GC.class_histogram; histograms in $OUT/idle/)"
    echo "- idle client connections kept 600 s by both (jwd: jetty.http.idleTimeout=600000, nginx: keepalive_timeout 600s); rounds: $ROUNDS, interleaved; medians shown"
    analysis idle-report "$OUT/idle/idle.tsv" "${TARGETS[*]}"
  } | tee "$OUT/table.md"
  local expected=() labels=() problems
  for target in "${TARGETS[@]}"; do
    for count in "${IDLE_COUNTS[@]}"; do expected+=("2:$target@$count"); labels+=("$target@$count"); done
  done
  problems=$(analysis idle-verdict "$OUT/idle/idle.tsv" "$ROUNDS" "$IDLE_HELD" "${labels[*]}") \
    || die "the idle verdict could not be computed ($OUT/idle/idle.tsv)"
  if [[ -n $problems ]]; then
    printf '%s\n' "$problems" | sed 's/^/  /' >&2
    die "targets that did not hold $IDLE_HELD % of their idle connections: $(cut -d: -f1 <<< "$problems" | tr '\n' ' ')"
  fi
  log "idle verdict: every target held at least $IDLE_HELD % of its connections in each round"
  verdict "${expected[@]}"
}

# ---------------------------------------------------------------------------------------------------------------
# The cluster-capacity suite: two jwd nodes in cluster mode on one Terracotta server, each driven by its own wrk with
# new sessions only (src/bench/wrk-new-sessions.lua), at more connections step by step: how many new bindings a second
# the server takes before its write latency doubles, and its CPU per binding (org.jwd.bench.ClusterCapacity).
capacity_start_nodes() {
  local node hash
  hash=$(printf '%s\n' "bench-$RANDOM$RANDOM" | "$ROOT/bin/jwd" hash-password --iterations 1000) \
    || die "cluster-capacity: could not hash an admin password"
  CAPACITY_PORT=()
  for node in 1 2; do
    # jwd-cluster's configuration, scrapable without credentials, with short timeouts so that the tables hold a
    # minute of new sessions, not the whole run's (a full table stops binding: the run would measure less)
    { grep -v '^SessionTableTimeout=' "$OUT/jwd-cluster.properties"
      printf '%s\n' SessionTableTimeout=1m wdisp/HTTP/context_timeout=60 admin.user=bench \
        "admin.password_hash=$hash" admin.metrics_anonymous=true; } > "$OUT/capacity-node$node.properties"
    alloc_port "CAPACITY_PORT[$node]"
    JWD_JAVA_OPTS=$JAVA_OPTS start "capacity-node$node" "$ROOT/bin/jwd" run \
      --config "$OUT/capacity-node$node.properties" --port "${CAPACITY_PORT[$node]}"
    CAPACITY_PID[$node]=$LAST_PID
  done
  for node in 1 2; do
    wait_ready "capacity-node$node" "${CAPACITY_PID[$node]}" "${CAPACITY_PORT[$node]}" "jwd: ready on"
    grep -q "Session table cluster .*: connected" "$OUT/capacity-node$node.out" "$OUT/capacity-node$node.err" \
      || die "cluster-capacity: node $node did not connect to its Terracotta server ($OUT/capacity-node$node.err)"
    PROCESS[capacity-node$node]=${CAPACITY_PID[$node]}
    check_jvm_options "capacity-node$node"
  done
}

# capacity_load CONNECTIONS SECONDS OUTPUT_PREFIX ID_PREFIX: wrk against both nodes at once, new sessions only; each
# node's output in OUTPUT_PREFIX-node<n>.txt ... or, with OUTPUT_PREFIX a directory, in it as node<n>.wrk.txt.
capacity_load() {
  local connections=$1 seconds=$2 out=$3 ids=$4 node file threads=$(( THREADS < $1 ? THREADS : $1 ))
  WRK_PID=""
  for node in 1 2; do
    if [[ -d $out ]]; then file=$out/node$node.wrk.txt; else file=$out-node$node.txt; fi
    wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s "$ROOT/src/bench/wrk-new-sessions.lua" \
      "http://127.0.0.1:${CAPACITY_PORT[$node]}$URL_PATH" -- "${ids}n$node" > "$file" 2>&1 &
    WRK_PID+="${WRK_PID:+ }$!"
  done
  for pid in $WRK_PID; do wait "$pid" || true; done
  WRK_PID=""
}

capacity_scrape() { # DIR WHEN: both nodes' metrics into DIR/node<n>.metrics-WHEN
  local node
  for node in 1 2; do
    curl -fsS --max-time 30 "http://127.0.0.1:${CAPACITY_PORT[$node]}/jwd/admin/metrics" \
      > "$1/node$node.metrics-$2" || die "cluster-capacity: node $node's metrics did not answer ($1)"
  done
}

measure_capacity() { # ROUND CONNECTIONS
  local round=$1 connections=$2 dir=$OUT/capacity/r$1-c$2 cpu=() pid
  mkdir -p "$dir"
  for pid in "${STARTED[@]}"; do
    kill -0 "$pid" 2>/dev/null || die "a process of the benchmark (pid $pid) has died: see the logs in $OUT"
  done
  (( WARMUP == 0 )) || capacity_load "$connections" "$WARMUP" "$dir/warmup" "r${round}c${connections}w"
  # the scrape first, then the CPU times and when they were read, at once before the run
  capacity_scrape "$dir" before
  read -ra cpu <<< "$(analysis cpus "$TERRACOTTA" "${CAPACITY_PID[1]}" "${CAPACITY_PID[2]}")"
  local cpu_read; cpu_read=$(date +%s%N)
  capacity_load "$connections" "$DURATION" "$dir" "r${round}c${connections}m"
  capacity_scrape "$dir" after
  local figure
  figure=$(analysis capacity-record "$round" "$connections" "$DURATION" "$dir" "$OUT/capacity.tsv" \
    "$TERRACOTTA" "${cpu[0]}" "${CAPACITY_PID[1]}" "${cpu[1]}" "${CAPACITY_PID[2]}" "${cpu[2]}" "$cpu_read") \
    || die "cluster-capacity, round $round, $connections connections: no figure (above; files in $dir)"
  log "$figure"
  # wrk's summaries, so that a node that answered nothing, or with errors, fails the run (the verdict)
  analysis record "$round" "$ROUNDS" 2 "node1@$connections" "$dir/node1.wrk.txt" "$OUT/results.tsv" > /dev/null
  analysis record "$round" "$ROUNDS" 2 "node2@$connections" "$dir/node2.wrk.txt" "$OUT/results.tsv" > /dev/null
}

run_cluster_capacity() {
  local round count node_cpus=$CPUS
  (( PIN == 0 )) || node_cpus=$(( ${PIN_PROXY#*-} - ${PIN_PROXY%-*} + 1 ))
  log "waiting for the Terracotta server to become active (about 30 s)"
  wait_ready terracotta "$TERRACOTTA" "$TC_PORT" "Moved to State\[ ACTIVE-COORDINATOR \]" 300
  capacity_start_nodes
  mkdir -p "$OUT/capacity"
  if (( FIRST_WARMUP > 0 )); then
    log "warming up both nodes (${FIRST_WARMUP} s at ${CAPACITY_CONNECTIONS[-1]} connections each)"
    capacity_load "${CAPACITY_CONNECTIONS[-1]}" "$FIRST_WARMUP" "$OUT/capacity/first-warmup" first
  fi
  log "measuring: ${#CAPACITY_CONNECTIONS[@]} steps (${CAPACITY_CONNECTIONS[*]} connections per node) x $ROUNDS rounds x ($WARMUP + $DURATION) s"
  for ((round = 1; round <= ROUNDS; round++)); do
    for count in "${CAPACITY_CONNECTIONS[@]}"; do measure_capacity "$round" "$count"; done
  done
  {
    echo "## One Terracotta server, two jwd nodes, new sessions only (src/bench/run cluster-capacity)"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); jwd $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "- machine: $CPUS CPUs, $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo); load average at the end $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -n 1)"
    echo "- load: per step, wrk -c<connections> -d${DURATION}s against each node at once, every request with a JSESSIONID never sent before (src/bench/wrk-new-sessions.lua), $WARMUP s warm-up before each; rounds: $ROUNDS; medians shown"
    echo "- nodes: jwd in cluster mode (SessionTable.cluster_uri, temporary table, SessionTableTimeout=1m, wdisp/HTTP/context_timeout=60), BENCH_JAVA_OPTS='$JAVA_OPTS'; a Terracotta server from the Ehcache kit (offheap main:256MB)"
    if (( PIN )); then
      echo "- pinned (BENCH_PIN=1): both nodes on CPU $PIN_PROXY; wrk, the backends and the Terracotta server on CPU $PIN_REST"
    else
      echo "- not pinned (BENCH_PIN=0): the nodes, the server, wrk and the backends share the machine's $CPUS CPUs"
    fi
    analysis capacity-report "$OUT/capacity.tsv" "$node_cpus"
    echo
    echo "new bindings/s: both nodes' jwd_session_table_bindings_total over the run; bindings/req: against wrk's requests"
    echo "(1: each request a new session); writes/binding: jwd_session_table_cluster_writes_total per binding (2 expected:"
    echo "the binding in the temporary table and the no-binding marker of the learned JSESSIONID's key); write µs: the"
    echo "mean of jwd_session_table_cluster_write_seconds_total over the writes, as the nodes saw it; server CPU: the"
    echo "Terracotta server's process tree, per binding and in CPUs; nodes' CPUs: both nodes together (CPUs: over the"
    echo "run and the moments around it the CPU times were read in); p50/p99: wrk's, the slower node's; bindings/req a"
    echo "little over 1: requests wrk left unanswered when it stopped were bound all the same."
  } | tee "$OUT/table.md"
  local expected=()
  for count in "${CAPACITY_CONNECTIONS[@]}"; do expected+=("2:node1@$count" "2:node2@$count"); done
  verdict "${expected[@]}"
}
