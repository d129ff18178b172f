#!/usr/bin/env bash
# Builds the JMH benchmarks (the root's jmh profile) and runs them in forks with the service's JVM flags,
# read from the packaged launcher. Any arguments go to JMH, e.g.: exporter/src/bench/jmh.sh SampleBench -prof gc
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
opts="$(sed -n 's/^: "${JAVA_OPTS:=\(.*\)}"$/\1/p' exporter/src/deb/bin/headroom)"
[ -n "$opts" ] || { echo "jmh.sh: cannot read JAVA_OPTS from exporter/src/deb/bin/headroom" >&2; exit 1; }
mvn -q -B -ntp -Pjmh package -Dmaven.test.skip=true
exec java -jar exporter/src/bench/jmh/target/benchmarks.jar -jvmArgsAppend "$opts" "$@"
