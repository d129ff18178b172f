package dev.headroom.judge;

import java.util.Locale;

/**
 * What the operator should do; the {@code advice} StateSet of {@code headroom_advice}. Several can hold at once.
 *
 * <p>Usage: {@code boolean act = !judgement.adviceSet().contains(Advice.NONE);}
 */
public enum Advice {
  /** Nothing to do: set when no other advice holds. */
  NONE,
  /** Give the peer more cores (CPU-bound below the ~16-core knee). */
  SCALE_UP,
  /** Add a peer in its own Network (more cores or a bigger NIC will not help enough). */
  SCALE_OUT,
  /** Let NetBird use kernel WireGuard: the userspace datapath is near its plateau. */
  ENABLE_KERNEL_WIREGUARD,
  /** The path carries jumbo frames end to end but the tunnel runs at a standard MTU. */
  RAISE_MTU,
  /** The NIC is full while the CPU has room: a faster interface buys throughput. */
  BIGGER_INTERFACE,
  /** A relayed client is held by the relay: let it reach the peer directly (UDP reachability, NAT, firewall). */
  DIRECT_PATH;

  private final String label = name().toLowerCase(Locale.ROOT);

  /** The value used in metric labels and JSON. */
  public String label() {
    return label;
  }
}
