package dev.headroom.read;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One read of one network interface from {@code <sysfs>/class/net/<name>}.
 *
 * <p>Usage: {@code InterfaceReading r = new NetInterfaceReader(sysfsRoot).read("wt0", System.nanoTime()); int mtu = r.present() ? r.mtu() : 0;}
 *
 * @param present false when the interface does not exist (then the other fields are zero or empty)
 * @param speedMbps sysfs {@code speed}, empty when the driver reports none (TUN says 10000; veth fails)
 * @param wireguardDevtype {@code DEVTYPE=wireguard} in {@code uevent}: kernel WireGuard
 * @param threaded the {@code threaded} NAPI flag, empty where the file is absent
 */
public record InterfaceReading(
    String name,
    boolean present,
    int ifindex,
    int mtu,
    String operstate,
    InterfaceCounters counters,
    OptionalLong speedMbps,
    boolean wireguardDevtype,
    OptionalInt threaded) {

  private static final InterfaceCounters ZERO = new InterfaceCounters(0, 0, 0, 0, 0, 0, 0, 0);

  public static InterfaceReading absent(String name) {
    return new InterfaceReading(
        name, false, 0, 0, "absent", ZERO, OptionalLong.empty(), false, OptionalInt.empty());
  }

  /** TUN devices report {@code unknown}; only {@code down}-like states mean the link is not passing traffic. */
  public boolean operUp() {
    return present && ("up".equals(operstate) || "unknown".equals(operstate));
  }

  public Datapath datapath() {
    if (!present) {
      return Datapath.ABSENT;
    }
    // A TUN device, or any other interface of the tunnel's name: userspace is the likelier reading.
    return wireguardDevtype ? Datapath.KERNEL : Datapath.USERSPACE;
  }
}
