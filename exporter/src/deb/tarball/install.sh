#!/bin/sh
# Installs headroom from this unpacked tarball on a systemd distribution without dpkg.
# Usage (as root, from the unpacked directory):
#   ./install.sh               install or upgrade; keeps existing /etc/headroom and /etc/default/headroom
#   ./install.sh --uninstall   remove the program and units; keeps config, state and the user
# PREFIX (default /usr/local) holds the program; config and state go where the .deb puts them.
# Nothing is enabled or started: systemctl enable --now headroom (on routing peers), headroom-discover (next to
# Prometheus, once /etc/headroom/netbird-token holds a NetBird token).
set -eu
PREFIX="${PREFIX:-/usr/local}"
src="$(cd "$(dirname "$0")" && pwd)"
unit=/etc/systemd/system/headroom.service
discover_unit=/etc/systemd/system/headroom-discover.service

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root" >&2
  exit 1
fi

if [ "${1:-}" = "--uninstall" ]; then
  if [ -d /run/systemd/system ]; then
    systemctl disable --now headroom.service headroom-discover.service 2>/dev/null || true
  fi
  rm -f "$unit" "$discover_unit" "$PREFIX/bin/headroom"
  rm -rf "$PREFIX/share/headroom"
  if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
  echo "removed; left: /etc/headroom, /etc/default/headroom, /var/lib/headroom, user headroom"
  exit 0
fi

if ! command -v java >/dev/null; then
  echo "install.sh: no java on PATH; install a Java 17+ runtime first" >&2
  exit 1
fi

if ! getent group headroom >/dev/null; then groupadd --system headroom; fi
if ! getent passwd headroom >/dev/null; then
  useradd --system --gid headroom --home-dir /var/lib/headroom --no-create-home \
    --shell "$(command -v nologin || echo /sbin/nologin)" --comment "headroom exporter" headroom
fi

install -d -m 0755 "$PREFIX/share/headroom" "$PREFIX/bin"
install -m 0644 "$src/headroom.jar" "$PREFIX/share/headroom/headroom.jar"
for d in alerts dashboards systemd; do
  if [ -d "$src/$d" ]; then rm -rf "${PREFIX:?}/share/headroom/$d"; cp -R "$src/$d" "$PREFIX/share/headroom/$d"; fi
done
sed "s|/usr/share/headroom/headroom.jar|$PREFIX/share/headroom/headroom.jar|" "$src/bin/headroom" > "$PREFIX/bin/headroom"
chmod 0755 "$PREFIX/bin/headroom"
# Class-data sharing archive for a faster start (see bin/headroom); made here, for this JVM and jar path.
if ! timeout 120 "$PREFIX/bin/headroom" write-cds-archive >/dev/null 2>&1; then
  rm -f "$PREFIX/share/headroom/headroom.jsa"
  echo "install.sh: could not write the class-data archive; headroom starts without it" >&2
fi

install -d -o root -g headroom -m 0750 /etc/headroom
[ -e /etc/headroom/headroom.yml ] || install -m 0644 "$src/etc/headroom/headroom.yml" /etc/headroom/headroom.yml
[ -e /etc/default/headroom ] || install -D -m 0644 "$src/etc/default/headroom" /etc/default/headroom
[ -e /etc/default/headroom-discover ] || install -D -m 0644 "$src/etc/default/headroom-discover" /etc/default/headroom-discover
install -d -o headroom -g headroom -m 0750 /var/lib/headroom

for u in "$unit" "$discover_unit"; do
  sed "s|/usr/bin/headroom |$PREFIX/bin/headroom |" "$src/systemd/$(basename "$u")" > "$u"
  chmod 0644 "$u"
done
if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
echo "installed $PREFIX/bin/headroom, $unit and $discover_unit; start with: systemctl enable --now headroom"
