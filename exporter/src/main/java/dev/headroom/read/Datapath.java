package dev.headroom.read;

import java.util.Locale;

/**
 * Which WireGuard datapath carries the tunnel, as seen in sysfs.
 *
 * <p>Usage: {@code Datapath d = interfaceReading.datapath();}
 */
public enum Datapath {
  /** Kernel module: {@code DEVTYPE=wireguard} in the interface's uevent. */
  KERNEL,
  /** A TUN device driven by a userspace process (wireguard-go, NetBird's embedded copy, boringtun). */
  USERSPACE,
  /**
   * No kernel interface at all: NetBird runs WireGuard and a TCP/IP stack inside its own process
   * ({@code NB_USE_NETSTACK_MODE}, rootless containers). Seen only through {@code netbird status --json}: NetBird
   * connected, {@code usesKernelInterface} false, and no interface of the tunnel's name.
   */
  NETSTACK,
  /** No tunnel datapath seen: no interface of the tunnel's name, and NetBird not answering as connected in netstack mode. */
  ABSENT;

  private final String label = name().toLowerCase(Locale.ROOT);

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
}
