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
  /**
   * No kernel interface at all: NetBird runs WireGuard and a TCP/IP stack inside its own process
   * ({@code NB_USE_NETSTACK_MODE}, rootless containers). Seen only through {@code netbird status --json}: NetBird
   * connected, {@code usesKernelInterface} false, and no interface of the tunnel's name.
   */
  NETSTACK("netstack"),
  /** No tunnel datapath seen: no interface of the tunnel's name, and NetBird not answering as connected in netstack mode. */
  ABSENT("absent");

  private final String label;

  Datapath(String label) {
    this.label = label;
  }

  /** The value used in metric labels and JSON. */
  public String label() {
    return label;
  }

  /**
   * The datapath runs in a userspace process (wireguard-go on a TUN, or NetBird's netstack): its CPU is that
   * process's, and it plateaus at a few cores, so the userspace verdicts and advice apply.
   */
  public boolean userspace() {
    return this == USERSPACE || this == NETSTACK;
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
