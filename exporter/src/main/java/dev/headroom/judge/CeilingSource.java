package dev.headroom.judge;

import java.util.Locale;

/**
 * Where a ceiling came from, in order of trust; the {@code source} StateSet of {@code headroom_ceiling_source}.
 *
 * <p>Usage: {@code for (CeilingSource s : CeilingSource.values()) System.out.println(s.label() + (s == ceiling.source() ? " (in use)" : ""));}
 */
public enum CeilingSource {
  /** Measured on this peer by {@code headroom profile} under the same cores, datapath and MTU. */
  PROFILE,
  /** Set by the operator ({@code --ceiling.download}, {@code --ceiling.upload}). */
  CONFIG,
  /**
   * Learned on this peer from its own saturation (or from beating the reference for minutes), under the same
   * datapath, usable cores, tunnel MTU and CPU model; kept in the state file under {@code --path.state}.
   */
  OBSERVED,
  /**
   * From what each packet costs this peer's datapath, learned from ordinary traffic ({@link CostModel}), under the
   * same shape as an observed ceiling and kept beside it.
   */
  COST,
  /** The built-in reference tables, scaled to this peer's cores, datapath, MTU and NIC. */
  REFERENCE;

  private final String label = name().toLowerCase(Locale.ROOT);

  /** The value used in metric labels and JSON. */
  public String label() {
    return label;
  }
}
