package dev.headroom.judge;

import java.util.Locale;

/**
 * The fact a piece of advice rests on, so that {@code serve.Explainer} can say it and tests can assert it without
 * reading prose. Sent as {@code ground} in {@code /api/v1/status}.
 *
 * <p>Usage: {@code assertEquals(Ground.PAST_KNEE, judgement.advice().get(0).ground());}
 */
public enum Ground {
  /** Nothing is near its limit. */
  ROOM,
  /** No tunnel datapath: nothing to act on until a tunnel carries traffic. */
  NO_DATAPATH,
  /** One tunnel is at its own limit: neither cores nor peers raise one tunnel's rate. */
  ONE_TUNNEL,
  /** Kernel peer bound by CPU below the ~16-core knee: the table still grows with cores. */
  BELOW_KNEE,
  /** Kernel peer bound by CPU at or past the knee: cores no longer help (upload flat, download inches up). */
  PAST_KNEE,
  /** Userspace peer bound by CPU below the cores wireguard-go can use. */
  USERSPACE_BELOW_KNEE,
  /** Userspace peer bound by CPU: kernel WireGuard on the same cores carries more. */
  USERSPACE_BOUND,
  /** Userspace peer near its plateau but not yet bound. */
  USERSPACE_NEAR_PLATEAU,
  /** The NIC is full and there is no bigger NIC to have. */
  LARGEST_NIC,
  /** The NIC is full and the CPU is saturated too. */
  LINK_AND_CPU_FULL,
  /** The NIC is full while the CPU has room. */
  LINK_FULL_CPU_ROOM,
  /** The path carries jumbo frames end to end and the tunnel runs at the default MTU. */
  JUMBO_PATH,
  /** The busiest tunnel goes through NetBird's relay and holds flat there while the peer has room. */
  RELAYED_TUNNEL;

  private final String label = name().toLowerCase(Locale.ROOT);

  /** The value used in JSON. */
  public String label() {
    return label;
  }
}
