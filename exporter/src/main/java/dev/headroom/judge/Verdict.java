package dev.headroom.judge;

import java.util.Locale;

/**
 * What limits one direction of the peer right now; the {@code verdict} StateSet of {@code headroom_verdict}.
 *
 * <p>Usage: {@code boolean bound = judgement.of(Direction.DOWNLOAD).verdict().bound();}
 */
public enum Verdict {
  /** Nothing is near its limit. */
  HEADROOM,
  /** The CPU the datapath can use is saturated, or the direction holds its CPU-derived ceiling (see {@link Cause}). */
  CPU_BOUND,
  /** The underlay NIC's side for this direction is near its line rate. */
  LINK_BOUND,
  /** One core is pegged while the others idle: one tunnel (one client device) is at its own limit. */
  SINGLE_TUNNEL_BOUND,
  /**
   * No tunnel datapath (no tunnel interface, and NetBird not answering as connected in netstack mode): nothing is
   * measured, so neither room nor a limit can be claimed. A netstack datapath has no interface but is measured.
   */
  NO_DATAPATH;

  private final String label = name().toLowerCase(Locale.ROOT);

  /** The value used in metric labels and JSON. */
  public String label() {
    return label;
  }

  /** True when something limits the direction: CPU, link or one tunnel (not headroom, not a missing datapath). */
  public boolean bound() {
    return this == CPU_BOUND || this == LINK_BOUND || this == SINGLE_TUNNEL_BOUND;
  }
}
