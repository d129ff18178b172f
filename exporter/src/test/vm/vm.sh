#!/usr/bin/env bash
# Boots Debian's own kernel under qemu with the host's root filesystem as the guest's root, and runs one
# program in it. The kernel package is fetched with apt-get download and unpacked with dpkg -x (nothing is
# installed on the host); the guest's root is the host's / over read-only 9p with a tmpfs overlay on top, so
# the guest runs the host's java, iperf3, wg, ip and the project's jar. Results come back through a second,
# writable 9p share mounted at /hr-results in the guest.
#
#   vm.sh prepare                   fetch and unpack the kernel, build the initramfs (into $HR_VM_CACHE)
#   vm.sh boot OUT INIT SECONDS     boot once: INIT (a path on the host's root) runs as the guest's PID 1,
#                                   OUT is the results share; the console goes to OUT/console.log
#   vm.sh clean                     delete $HR_VM_CACHE
#
# Env: HR_VM_CACHE (default /var/cache/headroom-vm: the kernel, its modules and the initramfs; delete it to
#      start over), HR_VM_ACCEL (tcg or kvm; default: kvm when a short probe boot succeeds, else tcg),
#      HR_VM_CPUS (default 2), HR_VM_MEM (MiB, default 2048).
# Every qemu run has a hard time limit and is ended by its PID; a guest panic ends qemu (panic=-1, -no-reboot).
#
# The checkout is bound read-only at GUEST_REPO in the guest, wherever it lives on the host: a guest mounts a tmpfs on
# /tmp (and a systemd guest empties it at boot), which would hide a checkout under /tmp; and a fixed path has
# no space to break the kernel command line or a unit's ExecStart. INIT and the paths the guest reads name
# files by their guest path (guest_path).
set -uo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_DIR/../../../.." && pwd)
GUEST_REPO=/hr-repo
CACHE=${HR_VM_CACHE:-/var/cache/headroom-vm}
CPUS=${HR_VM_CPUS:-2}
MEM=${HR_VM_MEM:-2048}
# Modules the initramfs loads for its root (with their dependencies); the rest load from the host's root.
INITRAMFS_MODULES="virtio_pci 9pnet_virtio 9p overlay"

vlog() { printf 'vm: %s\n' "$*" >&2; }
vdie() { printf 'vm: ERROR: %s\n' "$*" >&2; exit 1; }

# guest_path PATH: where the guest sees PATH, a file of the checkout or any other file of the host's root.
guest_path() {
  case $1 in
    "$REPO"/*) echo "$GUEST_REPO/${1#"$REPO"/}" ;;
    *) echo "$1" ;;
  esac
}

# qemu's -virtfs takes a comma-separated list: a comma in a path is written twice.
qemu_path() { echo "${1//,/,,}"; }

kernel_version() { ls "$CACHE/kernel/lib/modules" 2>/dev/null | head -1; }

# The kernel image package linux-image-amd64 currently points at, unpacked into $CACHE/kernel.
fetch_kernel() {
  [[ -f $CACHE/kernel/.complete ]] && return 0
  command -v apt-get >/dev/null || vdie "apt-get is needed to fetch Debian's kernel"
  mkdir -p "$CACHE"
  local pkg
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  if [[ -z $pkg ]]; then
    apt-get update -q >"$CACHE/apt-update.log" 2>&1 || true
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  fi
  [[ -n $pkg ]] || vdie "apt-cache knows no kernel behind linux-image-amd64"
  vlog "fetching $pkg (apt-get download, unpacked with dpkg -x into $CACHE/kernel)"
  rm -rf "$CACHE/kernel" "$CACHE"/linux-image-*.deb
  (cd "$CACHE" && apt-get download -q "$pkg") >"$CACHE/download.log" 2>&1 \
    || { tail -5 "$CACHE/download.log" >&2; vdie "apt-get download $pkg failed"; }
  dpkg -x "$CACHE"/linux-image-*.deb "$CACHE/kernel" || vdie "dpkg -x failed"
  rm -f "$CACHE"/linux-image-*.deb
  local ver
  ver=$(kernel_version)
  [[ -n $ver && -f $CACHE/kernel/boot/vmlinuz-$ver ]] || vdie "no vmlinuz in $pkg"
  # The package ships no modules.dep (the postinst would make it); busybox has a depmod.
  busybox depmod -b "$CACHE/kernel" "$ver" || vdie "depmod failed"
  touch "$CACHE/kernel/.complete"
}

# The module files that loading $1 needs (itself last), as paths relative to the version's directory.
module_closure() {
  local ver=$1 name=$2 dep line
  dep="$CACHE/kernel/lib/modules/$ver/modules.dep"
  line=$(grep -E "/${name//_/[_-]}\.ko:" "$dep" | head -1)
  [[ -n $line ]] || vdie "module $name not in $dep"
  # modules.dep: "path: dep1 dep2"; every dependency's own dependencies are already on its line.
  echo "${line%%:*}"
  for d in ${line#*:}; do echo "$d"; done
}

build_initramfs() {
  local ver out stage
  ver=$(kernel_version)
  out="$CACHE/initramfs-$ver.gz"
  if [[ -f $out && $out -nt $VM_DIR/initramfs-init && $out -nt $CACHE/kernel/.complete ]]; then
    return 0
  fi
  command -v cpio >/dev/null || vdie "cpio is needed (Debian package cpio)"
  local bb
  bb=$(command -v busybox) || vdie "busybox is needed (Debian package busybox-static)"
  [[ $(ldd "$bb" 2>&1) == *"not a dynamic"* ]] || vdie "$bb is not statically linked (install busybox-static)"
  stage=$(mktemp -d "$CACHE/initramfs.XXXXXX")
  mkdir -p "$stage"/{bin,proc,sys,dev,lib/modules/$ver}
  cp "$bb" "$stage/bin/busybox"
  cp "$VM_DIR/initramfs-init" "$stage/init"
  chmod 755 "$stage/init"
  local m f
  for m in $INITRAMFS_MODULES; do
    for f in $(module_closure "$ver" "$m"); do
      mkdir -p "$stage/lib/modules/$ver/$(dirname "$f")"
      cp "$CACHE/kernel/lib/modules/$ver/$f" "$stage/lib/modules/$ver/$f"
    done
  done
  cp "$CACHE/kernel/lib/modules/$ver"/modules.{dep,alias,symbols,builtin,order} "$stage/lib/modules/$ver/" 2>/dev/null
  [[ -f $stage/lib/modules/$ver/modules.dep ]] || vdie "modules.dep missing"
  (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp" || vdie "cpio failed"
  mv "$out.tmp" "$out"
  rm -rf "$stage"
}

cmd_prepare() {
  [[ $(id -u) -eq 0 ]] || vdie "run as root (apt-get download into $CACHE, qemu with 9p of /)"
  command -v qemu-system-x86_64 >/dev/null || vdie "qemu-system-x86_64 is needed (Debian package qemu-system-x86)"
  fetch_kernel
  build_initramfs
}

# qemu_run ACCEL OUT INIT SECONDS: one guest, ended by its PID at the deadline. Returns qemu's exit status,
# 124 when the deadline ended it.
qemu_run() {
  local accel=$1 out=$2 init=$3 secs=$4 ver cpu
  ver=$(kernel_version)
  mkdir -p "$out"
  # The initramfs binds the checkout named here at $GUEST_REPO (a file, not the command line: any path).
  printf '%s\n' "$REPO" >"$out/hr-repo"
  if [[ $accel == kvm ]]; then cpu=host; else cpu=max; fi
  local append="console=ttyS0 panic=-1 oops=panic loglevel=4 hr_init=$(guest_path "$init") hr_modules=$CACHE/kernel/lib/modules"
  [[ $init == */systemd ]] && append+=" systemd.show_status=0 systemd.unit=hr-vm.target"
  qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp "$CPUS" -m "$MEM" \
    -nographic -no-reboot -monitor none -serial stdio -nic none \
    -kernel "$CACHE/kernel/boot/vmlinuz-$ver" -initrd "$CACHE/initramfs-$ver.gz" -append "$append" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$(qemu_path "$out"),mount_tag=hrres,security_model=none,multidevs=remap" \
    </dev/null >"$out/console.log" 2>&1 &
  local pid=$! deadline=$((SECONDS + secs)) rc
  echo "$pid" >"$out/qemu.pid"
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    vlog "guest still running after ${secs} s: ending qemu (pid $pid)"
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rc=124
  else
    wait "$pid"; rc=$?
  fi
  rm -f "$out/qemu.pid"
  return "$rc"
}

# KVM only when a short probe boot reaches userspace and powers off (a guest here once hung after
# "Probing EDD" under KVM); otherwise TCG.
choose_accel() {
  if [[ -n ${HR_VM_ACCEL:-} ]]; then echo "$HR_VM_ACCEL"; return; fi
  if [[ -r $CACHE/accel ]]; then cat "$CACHE/accel"; return; fi
  local accel=tcg probe
  if [[ -c /dev/kvm && -w /dev/kvm ]]; then
    probe=$(mktemp -d "$CACHE/probe.XXXXXX")
    if qemu_run kvm "$probe" "$VM_DIR/guest-probe.sh" 40 && grep -q HR-PROBE-OK "$probe/probe.txt" 2>/dev/null; then
      accel=kvm
    else
      vlog "KVM probe boot did not finish; using TCG (console tail below)"
      tail -5 "$probe/console.log" >&2
    fi
    rm -rf "$probe"
  fi
  echo "$accel" >"$CACHE/accel"
  echo "$accel"
}

cmd_boot() {
  local out=$1 init=$2 secs=$3 accel rc
  cmd_prepare
  accel=$(choose_accel)
  vlog "booting $(kernel_version) ($accel, $CPUS cpus, $MEM MiB) with init $(guest_path "$init"), limit ${secs} s"
  local t0=$SECONDS
  qemu_run "$accel" "$out" "$init" "$secs"; rc=$?
  vlog "guest ended after $((SECONDS - t0)) s (qemu exit $rc)"
  return "$rc"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  case ${1:-} in
    prepare) cmd_prepare ;;
    boot) [[ $# -eq 4 ]] || vdie "usage: vm.sh boot OUT INIT SECONDS"; cmd_boot "$2" "$3" "$4" ;;
    clean) rm -rf "$CACHE" ;;
    *) echo "usage: $0 prepare | boot OUT INIT SECONDS | clean" >&2; exit 2 ;;
  esac
fi
