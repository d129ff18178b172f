# Sourced by the guest's PID 1 scripts (after the initramfs handed over): the mounts a normal boot makes, and
# a poweroff that always ends the guest, so qemu exits (-no-reboot) instead of waiting for its time limit.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs run /run
mount -t tmpfs tmp /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
mkdir -p /run/netns /var/run/wireguard
ip link set lo up
hostname headroom-vm
guest_poweroff() {
  sync
  echo o >/proc/sysrq-trigger
  sleep 30
}
