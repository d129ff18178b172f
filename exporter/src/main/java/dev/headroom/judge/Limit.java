package dev.headroom.judge;

import java.util.Locale;

/**
 * The resource that stopped throughput rising while a profile was measured.
 *
 * <p>Usage: {@code props.setProperty("download.limit", limit.label());}
 */
public enum Limit {
  CPU("cpu"),
  LINK("link"),
  UNKNOWN("unknown");

  private final String label;

  Limit(String label) {
    this.label = label;
  }

  /** The value written to and read from profile files. */
  public String label() {
    return label;
  }

  /** Parses a label ({@code cpu}, {@code link}, {@code unknown}); case-insensitive. */
  public static Limit parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (Limit l : values()) {
      if (l.label.equals(t)) {
        return l;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of cpu, link, unknown");
  }
}
