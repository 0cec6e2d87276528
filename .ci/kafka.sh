# shellcheck shell=bash
# A real single-node Kafka broker (KRaft, combined broker+controller, loopback only) for CI and for
# developers, without Docker: the broker jars come from Maven Central through `mvn`, as described in
# ../shared/reference/kafka-without-docker.md (no Debian or npm package ships a broker).
#
# Sourced, never executed, so it sets no shell options: it must behave the same under .ci/run's
# `set -euo pipefail` and in a developer's interactive shell. Every function returns non-zero on
# failure instead of exiting.
#
#   source .ci/kafka.sh
#   kafka_install && kafka_start     # exports KAFKA_BROKERS=127.0.0.1:<port>
#   npm test
#   kafka_stop
#
# Knobs (environment): KAFKA_VERSION, KAFKA_PORT / KAFKA_CONTROLLER_PORT (default: first free port
# from 19092 up), KAFKA_HEAP, KAFKA_START_TIMEOUT (seconds), KAFKA_DIR (work dir; default: a fresh
# temporary dir that kafka_stop removes). Maven honours MAVEN_OPTS, so a throwaway repository is
# MAVEN_OPTS=-Dmaven.repo.local=/tmp/empty-m2.

# 3.9.x, the last 3.x line (one of the lines the reference doc lists for pinning), rather than 4.x:
# the project's bus adapter is kafkajs, which has had no release since 2023, and 4.0 removed old
# protocol versions (KIP-896); 3.9 still serves every version kafkajs may pick. 3.x also keeps the
# reload4j logging set-up that the doc spells out (4.x moved to Log4j 2). It runs on Java 17.
KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"

# The logging binding is not transitive (reference doc, section 1). 3.x logs through reload4j;
# these are the versions the 3.9 binary distribution ships in libs/.
_KAFKA_SLF4J_VERSION=1.7.36
_KAFKA_RELOAD4J_VERSION=1.2.25
# Named with its version so that Maven does not look up "latest" in remote metadata: a warm
# ~/.m2 then needs no network at all.
_KAFKA_DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

_kafka_log() { printf '[kafka] %s\n' "$*" >&2; }

# shellcheck source=.ci/ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

# Resolves kafka_2.13 and its runtime dependencies into $KAFKA_DIR/lib. Jars are cached in the
# local Maven repository (~/.m2 unless MAVEN_OPTS says otherwise), so only the first run on a
# machine downloads (~46 MB).
kafka_install() {
  command -v java >/dev/null || { _kafka_log "java not found (JDK 17 is needed)"; return 1; }
  command -v mvn >/dev/null || { _kafka_log "mvn not found"; return 1; }

  if [[ -z "${KAFKA_DIR:-}" ]]; then
    KAFKA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tonflow-kafka.XXXXXX") || return 1
    _KAFKA_DIR_IS_TEMP=1
  fi
  mkdir -p "$KAFKA_DIR" || return 1

  # kafka-tools comes without its transitive dependencies: they would drag in Kafka Connect's
  # runtime (Jetty, Jersey), while kafka_2.13 already brings everything TopicCommand and the
  # console producer/consumer need. It is here so that developers (and a smoke check) can run
  # kafka-topics against the broker with `java -cp "$KAFKA_CLASSPATH" org.apache.kafka.tools.TopicCommand`.
  cat >"$KAFKA_DIR/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>tonflow.ci</groupId>
  <artifactId>kafka-broker</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_2.13</artifactId>
      <version>${KAFKA_VERSION}</version>
    </dependency>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka-tools</artifactId>
      <version>${KAFKA_VERSION}</version>
      <exclusions>
        <exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion>
      </exclusions>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-reload4j</artifactId>
      <version>${_KAFKA_SLF4J_VERSION}</version>
    </dependency>
    <dependency>
      <groupId>ch.qos.reload4j</groupId>
      <artifactId>reload4j</artifactId>
      <version>${_KAFKA_RELOAD4J_VERSION}</version>
    </dependency>
  </dependencies>
</project>
EOF

  # Copies rather than pointing a classpath into ~/.m2: `-cp lib/*` stays short and independent
  # of where the local repository lives; the copy takes well under a second.
  # Maven's output goes to a file and is shown only on failure: on success it is noise (and Maven
  # 3.8 writes stray colour codes even in batch mode).
  rm -rf "${KAFKA_DIR:?}/lib"
  mvn -B -ntp -f "$KAFKA_DIR/pom.xml" "$_KAFKA_DEP_PLUGIN:copy-dependencies" \
    -DincludeScope=runtime -DoutputDirectory="$KAFKA_DIR/lib" >"$KAFKA_DIR/mvn.log" 2>&1 || {
    cat "$KAFKA_DIR/mvn.log" >&2
    _kafka_log "mvn could not resolve Kafka $KAFKA_VERSION (Maven Central reachable? see above)"
    return 1
  }
  KAFKA_CLASSPATH="$KAFKA_DIR/lib/*"
  export KAFKA_DIR KAFKA_CLASSPATH
  _kafka_log "Kafka $KAFKA_VERSION: $(find "$KAFKA_DIR/lib" -name '*.jar' | wc -l) jars in $KAFKA_DIR/lib"
}

# Formats a fresh KRaft log dir and starts the broker in the background, then waits until it
# serves requests. Exports KAFKA_BROKERS and KAFKA_PID.
kafka_start() {
  [[ -n "${KAFKA_CLASSPATH:-}" ]] || { _kafka_log "run kafka_install first"; return 1; }
  if [[ -n "${KAFKA_PID:-}" ]] && kill -0 "$KAFKA_PID" 2>/dev/null; then
    _kafka_log "already running (pid $KAFKA_PID, $KAFKA_BROKERS)"
    return 0
  fi

  local port cport
  port=${KAFKA_PORT:-$(ci_free_port 19092)} || return 1
  cport=${KAFKA_CONTROLLER_PORT:-$(ci_free_port $((port + 1)) "$port")} || return 1
  # The readiness check below only knows that *something* accepts on the port; with a port given
  # in KAFKA_PORT that something could be another process, and the broker's bind failure would go
  # unnoticed until the tests talk to the wrong server.
  if ci_port_open "$port" || ci_port_open "$cport"; then
    _kafka_log "port $port or $cport is already in use"
    return 1
  fi
  local conf="${KAFKA_DIR:?}/server.properties" data="$KAFKA_DIR/data" log="$KAFKA_DIR/broker.log"
  rm -rf "$data" "$log"

  # The reference doc's minimal combined-mode config with a static quorum, moved to the chosen
  # ports. The lines after the doc's are for a broker that lives for one test run.
  cat >"$conf" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${cport}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${cport}
advertised.listeners=PLAINTEXT://127.0.0.1:${port}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${data}
num.partitions=3
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
# Raw blocks and account-state BOCs can be large; clients raise their limits to match.
message.max.bytes=52428800
replica.fetch.max.bytes=52428800
# The first consumer group creates __consumer_offsets; 50 partitions (the default) cost seconds on
# a 2-core runner and buy nothing on one broker.
offsets.topic.num.partitions=1
transaction.state.log.num.partitions=1
# The broker is thrown away after the run; a 2-core runner has no threads to spare.
num.network.threads=2
num.io.threads=2
EOF

  # Everything to stdout, which goes to one file: the script prints that file when the broker
  # does not come up, and there is nothing else to collect.
  cat >"$KAFKA_DIR/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
EOF

  local java_tool=(java -Dlog4j.configuration="file:$KAFKA_DIR/log4j.properties" -cp "$KAFKA_CLASSPATH")
  local cluster_id
  cluster_id=$("${java_tool[@]}" kafka.tools.StorageTool random-uuid 2>>"$log") || {
    _kafka_log "StorageTool random-uuid failed"; cat "$log" >&2; return 1
  }
  "${java_tool[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$conf" --ignore-formatted \
    >>"$log" 2>&1 || { _kafka_log "storage format failed"; cat "$log" >&2; return 1; }

  # Small heap: the broker shares a 2-core runner with vitest and Node. The process stays in the
  # caller's process group (no setsid/nohup), so a CI timeout that kills the group kills it too.
  # ExitOnOutOfMemoryError: a dead broker fails fast; a thrashing one fails tests slowly.
  local heap
  read -ra heap <<<"${KAFKA_HEAP:--Xms256m -Xmx512m}"
  java "${heap[@]}" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
    -Djava.awt.headless=true -Dkafka.logs.dir="$KAFKA_DIR" \
    -Dlog4j.configuration="file:$KAFKA_DIR/log4j.properties" \
    -cp "$KAFKA_CLASSPATH" kafka.Kafka "$conf" >>"$log" 2>&1 </dev/null &
  KAFKA_PID=$!
  KAFKA_BROKERS="127.0.0.1:${port}"
  export KAFKA_PID KAFKA_BROKERS

  # The broker's own listener accepts only after the broker has caught up with the metadata log
  # and been unfenced (3.9.2's log: "Awaiting socket connections on ...:<port>" comes right after
  # "The broker has been unfenced"), so an accepted connection means requests will be served.
  # Re-check this when changing KAFKA_VERSION. The pid check makes a crash fail at once instead
  # of after the timeout.
  local rc=0
  ci_wait_ready "$KAFKA_PID" "${KAFKA_START_TIMEOUT:-90}" "$log" "the Kafka broker" ci_port_open "$port" || rc=$?
  if ((rc == 1)); then unset KAFKA_PID; fi
  if ((rc != 0)); then
    kafka_stop
    return 1
  fi
  _kafka_log "broker up on $KAFKA_BROKERS (pid $KAFKA_PID, log $log)"
}

# Stops the broker (SIGTERM for a clean shutdown, SIGKILL if that hangs) and removes the work dir
# kafka_install made. Safe to call twice and when nothing was started, which is what a trap needs.
kafka_stop() {
  if [[ -n "${KAFKA_PID:-}" ]] && kill -0 "$KAFKA_PID" 2>/dev/null; then
    ci_stop_process "$KAFKA_PID" "the Kafka broker"
    _kafka_log "broker stopped"
  fi
  unset KAFKA_PID
  if [[ "${_KAFKA_DIR_IS_TEMP:-}" == 1 && -n "${KAFKA_DIR:-}" ]]; then
    rm -rf "$KAFKA_DIR"
    unset KAFKA_DIR KAFKA_CLASSPATH _KAFKA_DIR_IS_TEMP
  fi
  return 0
}
