# Sourced by compare.sh and lateness.sh: what both need to read their options and to start, stop and configure
# the processes they measure.

# split_options ARGS...: sets OPTIONS to ARGS with every --name=value split into --name value, so a script's
# option loop needs one case per option and accepts both spellings, as headroom's own flags do.
# Usage: split_options "$@"; set -- "${OPTIONS[@]}"
split_options() {
  OPTIONS=()
  local a
  for a in "$@"; do
    if [[ "$a" == --*=* ]]; then OPTIONS+=("${a%%=*}" "${a#*=}"); else OPTIONS+=("$a"); fi
  done
}

# stop_pid PID: TERM, wait up to 5 s, then KILL; only the process named by its id.
stop_pid() {
  local p="$1"
  if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
    kill "$p" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null || true
  fi
  wait "$p" 2>/dev/null || true
}

# free_port: a loopback port nobody listens on now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# cds_opts JAR JAVA_OPTS: the JVM flags for the class-data archive the packaged service runs with (postinst
# writes it with 'headroom write-cds-archive'), made here for the jar under test when it is missing or older
# than the jar; nothing when it cannot be made. The flags join the harnesses' JAVA_OPTS, a string split into
# words, so they name the archive through a link whose path has no spaces, wherever the checkout lives.
cds_opts() {
  local jar="$1" archive="${1%.jar}.jsa" root link
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  if [ ! -r "$archive" ] || [ ! "$archive" -nt "$jar" ]; then
    HEADROOM_JAR="$jar" JAVA_OPTS="$2" timeout 180 sh "$root/exporter/src/deb/bin/headroom" write-cds-archive \
      >/dev/null 2>&1 || { rm -f "$archive"; echo "could not write $archive; running without it" >&2; return 0; }
  fi
  link="/tmp/headroom-cds-$(id -u)/$(printf '%s' "$archive" | cksum | cut -d' ' -f1).jsa"
  mkdir -p "${link%/*}" && ln -sfn "$archive" "$link"
  echo "-XX:SharedArchiveFile=$link -Xlog:cds*=off"
}
