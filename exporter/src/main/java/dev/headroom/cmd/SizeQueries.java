package dev.headroom.cmd;

import dev.headroom.sample.Direction;

/**
 * The PromQL {@code headroom size} asks of a fleet's Prometheus: peak active tunnels, the mean rate per tunnel
 * and the lowest ceiling the peers learned themselves, each optionally for one Network.
 *
 * <p>Usage: {@code prom.single(SizeQueries.peakUsersQuery("net-a", "7d"))}
 */
final class SizeQueries {
  private SizeQueries() {}

  /**
   * Peak of simultaneously active tunnels over the window: the census gauge summed over the peers at each
   * minute, then the highest such sum (a sum of per-peer peaks would add peaks that never coincided). The
   * Network filter is an {@code and} on the peer's own series at each step, so a peer counts for the Network it
   * belonged to at that minute.
   */
  static String peakUsersQuery(String network, String window) {
    String active = "headroom_tunnels{state=\"active\"}";
    if (network != null) {
      active += " and on (job, instance) headroom_peer_info{network=" + promString(network) + "}";
    }
    return "max_over_time(sum(" + active + ")[" + window + ":1m])";
  }

  /**
   * The lowest ceiling in use that a peer learned itself: each peer's latest ceiling in the window, kept where its
   * latest ceiling source matched {@code sources} (a regex: {@code observed}, or {@code observed|cost}). The lowest,
   * so the plan holds on the weakest peer.
   */
  static String learnedCeilingQuery(Direction direction, String network, String window, String sources) {
    String d = "direction=\"" + direction.label() + "\"";
    String q = "last_over_time(headroom_ceiling_bytes_per_second{" + d + "}[" + window + "])"
        + " and on (job, instance, direction) (last_over_time(headroom_ceiling_source{" + d
        + ",source=~\"" + sources + "\"}[" + window + "]) == 1)";
    return "min(" + q + inNetwork(network, window) + ")";
  }

  /**
   * Mean rate per active tunnel over the window: the rate histogram's {@code _sum} over its {@code _count}, both
   * summed over peers first so busy peers weigh by their tunnel-seconds. The Network filter keeps the peers that
   * carried the label at any time in the window ({@code last_over_time}), so a peer that is down right now still
   * counts for what it carried.
   */
  static String perUserRateQuery(Direction direction, String network, String window) {
    return sumRate("sum", direction, network, window) + " / " + sumRate("count", direction, network, window);
  }

  private static String sumRate(String part, Direction direction, String network, String window) {
    return "sum(rate(headroom_tunnel_rate_bytes_per_second_" + part + "{direction=\"" + direction.label() + "\"}["
        + window + "])" + inNetwork(network, window) + ")";
  }

  /** Keeps the peers that carried the Network's label at any time in the window; all peers when none is named. */
  private static String inNetwork(String network, String window) {
    if (network == null) {
      return "";
    }
    return " and on (job, instance) last_over_time(headroom_peer_info{network=" + promString(network) + "}["
        + window + "])";
  }

  /** A PromQL double-quoted string literal. */
  static String promString(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '"' -> b.append("\\\"");
        case '\n' -> b.append("\\n");
        default -> b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
