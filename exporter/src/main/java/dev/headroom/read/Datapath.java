package dev.headroom.read;

/**
 * Which WireGuard datapath carries the tunnel, as seen in sysfs.
 *
 * <p>Usage: {@code Datapath d = Datapath.detect(present, hasWireguardDevtype, hasTunFlags);}
 */
public enum Datapath {
  /** Kernel module: {@code DEVTYPE=wireguard} in the interface's uevent. */
  KERNEL("kernel"),
  /** A TUN device driven by a userspace process (wireguard-go, NetBird's embedded copy, boringtun). */
  USERSPACE("userspace"),
  /** No tunnel interface: NetBird down, or netstack mode which has no kernel interface at all. */
  ABSENT("absent");

  private final String label;

  Datapath(String label) {
    this.label = label;
  }

  /** The value used in metric labels and JSON. */
  public String label() {
    return label;
  }

  /** Decides the datapath from the two sysfs markers; the kernel marker wins if both are present. */
  public static Datapath detect(boolean present, boolean wireguardDevtype, boolean tunFlags) {
    if (!present) {
      return ABSENT;
    }
    if (wireguardDevtype) {
      return KERNEL;
    }
    // An interface that is neither is still a tunnel the operator named; userspace is the likelier reading.
    return USERSPACE;
  }
}
