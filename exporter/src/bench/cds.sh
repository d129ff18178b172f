# Sourced by compare.sh and lateness.sh: the class-data archive the packaged service runs with (postinst
# writes it with 'headroom write-cds-archive'), made here for the jar under test when it is missing or older
# than the jar. cds_opts JAR prints the JVM flags that use it, or nothing when it cannot be made.
cds_opts() {
  local jar="$1" archive="${1%.jar}.jsa" root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  if [ ! -r "$archive" ] || [ ! "$archive" -nt "$jar" ]; then
    HEADROOM_JAR="$jar" JAVA_OPTS="$2" timeout 180 sh "$root/exporter/src/deb/bin/headroom" write-cds-archive \
      >/dev/null 2>&1 || { rm -f "$archive"; echo "cds.sh: could not write $archive; running without it" >&2; return 0; }
  fi
  echo "-XX:SharedArchiveFile=$archive -Xlog:cds*=off"
}
