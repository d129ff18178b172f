package dev.headroom.judge;

/**
 * What limits one direction of the peer right now; the {@code verdict} StateSet of {@code headroom_verdict}.
 *
 * <p>Usage: {@code boolean bound = judgement.of(Direction.DOWNLOAD).verdict().bound();}
 */
public enum Verdict {
  /** Nothing is near its limit. */
  HEADROOM("headroom"),
  /** The CPU the datapath can use is saturated, or the direction holds its CPU-derived ceiling (see {@link Cause}). */
  CPU_BOUND("cpu_bound"),
  /** The underlay NIC's side for this direction is near its line rate. */
  LINK_BOUND("link_bound"),
  /** One core is pegged while the others idle: one tunnel (one client device) is at its own limit. */
  SINGLE_TUNNEL_BOUND("single_tunnel_bound");

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  /** The value used in metric labels and JSON. */
  public String label() {
    return label;
  }

  /** True for every verdict but {@link #HEADROOM}. */
  public boolean bound() {
    return this != HEADROOM;
  }
}
