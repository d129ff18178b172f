# Sourced by ./headroom and ./test: makes sure Debian packages are present.
# As root it installs what is missing (apt-get, no recommends: wireguard-tools would pull a kernel image);
# otherwise it names what is missing and how to get it, and fails.

# need_packages "why" pkg:command [pkg:command ...]
# A package counts as present when its command is on PATH (or, with no command, dpkg knows it).
need_packages() {
  local why="$1"; shift
  local missing=() spec pkg cmd
  for spec in "$@"; do
    pkg="${spec%%:*}"; cmd="${spec#*:}"
    if [ "$cmd" != "$spec" ] && [ -n "$cmd" ]; then
      command -v "$cmd" >/dev/null 2>&1 && continue
    else
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" && continue
    fi
    missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "headroom: $why needs these Debian packages: ${missing[*]}" >&2
    echo "headroom: run as root to install them, or: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
  echo "headroom: installing ${missing[*]} ($why)" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/headroom-apt.log 2>&1; then
    apt-get update -q >/tmp/headroom-apt.log 2>&1 || true
    apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/headroom-apt.log 2>&1 || {
      echo "headroom: apt-get could not install ${missing[*]}; see /tmp/headroom-apt.log" >&2
      tail -5 /tmp/headroom-apt.log >&2
      return 1
    }
  fi
}

# The JDK and Maven that build the exporter.
need_build_tools() {
  need_packages "building the exporter" default-jdk-headless:javac maven:mvn
}

# A shell suite's jar: $HEADROOM_JAR, else exporter/target/headroom.jar, built when missing or older than the
# sources. Prints its path; on a failed build reports "SUITE: 0 passed, 1 failed (...)" on stderr (the caller
# captures stdout) and fails.
suite_jar() { # suite_jar SUITE
  local jar="${HEADROOM_JAR:-exporter/target/headroom.jar}"
  if [ ! -f "$jar" ] || [ -n "$(find exporter/src/main -newer "$jar" -type f | head -1)" ]; then
    echo "$1: building $jar" >&2
    mvn -B -q -ntp -pl exporter -am package -Dmaven.test.skip=true >"/tmp/headroom-$1-build.log" 2>&1 || {
      tail -20 "/tmp/headroom-$1-build.log" >&2; echo "$1: 0 passed, 1 failed (build failed)" >&2; return 1; }
  fi
  echo "$jar"
}
