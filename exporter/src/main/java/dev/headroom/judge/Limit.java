package dev.headroom.judge;

import java.util.Locale;

/**
 * What stopped throughput rising while a profile was measured, named from the whole peer. Each limit is the
 * profile's name for one of the classifier's {@link Cause}s, so a profile and a live verdict say the same thing.
 *
 * <p>Usage: {@code props.setProperty("download.limit", limit.label());}
 */
public enum Limit {
  /** Every core the peer may use was busy ({@link Cause#CORES_SATURATED}). */
  CPU("cpu", Cause.CORES_SATURATED),
  /** The underlay's side for the direction was at line rate ({@link Cause#LINK_FULL}). */
  LINK("link", Cause.LINK_FULL),
  /**
   * One core pegged while the others idled: one tunnel (one client device) at its own limit, not the peer's
   * ({@link Cause#ONE_TUNNEL_CORE}). More users or tunnels, or another peer, raise it; a bigger box does not.
   */
  SINGLE_TUNNEL("single_tunnel", Cause.ONE_TUNNEL_CORE),
  /**
   * The datapath held the reference figure for its size with idle cores: it cannot spread further (kernel past
   * the knee, the userspace plateau) ({@link Cause#AT_CEILING}).
   */
  AT_CEILING("at_ceiling", Cause.AT_CEILING),
  /** Nothing on the peer was full: the load generator or the far side may have been the limit. */
  UNKNOWN("unknown", null);

  private final String label;
  private final Cause cause;

  Limit(String label, Cause cause) {
    this.label = label;
    this.cause = cause;
  }

  /** The classifier's cause this limit stands for; empty for {@link #UNKNOWN}. */
  public java.util.Optional<Cause> cause() {
    return java.util.Optional.ofNullable(cause);
  }

  /** The value written to and read from profile files. */
  public String label() {
    return label;
  }

  /** Parses a label ({@code cpu}, {@code link}, {@code single_tunnel}, {@code at_ceiling}, {@code unknown}); case-insensitive. */
  public static Limit parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (Limit l : values()) {
      if (l.label.equals(t)) {
        return l;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of "
        + java.util.Arrays.stream(values()).map(Limit::label).collect(java.util.stream.Collectors.joining(", ")));
  }
}
