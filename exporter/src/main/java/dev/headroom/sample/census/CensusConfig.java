package dev.headroom.sample.census;

import java.time.Duration;
import java.util.Objects;

/**
 * Thresholds of the tunnel census.
 *
 * <p>Usage: {@code new TunnelCensus(CensusConfig.defaults())}
 *
 * @param handshakeRecent a tunnel whose last handshake is younger than this counts as
 *     {@code handshake_recent}; default 180 s, WireGuard's Reject-After-Time: past it, a session's keys
 *     are refused, so an older handshake means no live session
 * @param activeThresholdBytesPerSecond a tunnel moving more than this (both directions together,
 *     averaged over {@code activeWindow}) counts as an active user; default 1 KiB/s, see {@link #defaults()}
 * @param activeWindow the averaging time constant for activity (exponentially weighted); default 10 s
 * @param topN how many top talkers the snapshot lists (status page and {@code check} only); default 10
 */
public record CensusConfig(
    Duration handshakeRecent, double activeThresholdBytesPerSecond, Duration activeWindow, int topN) {

  public CensusConfig {
    Objects.requireNonNull(handshakeRecent, "handshakeRecent");
    Objects.requireNonNull(activeWindow, "activeWindow");
    if (handshakeRecent.isNegative() || handshakeRecent.isZero()) {
      throw new IllegalArgumentException("handshakeRecent must be positive, got " + handshakeRecent);
    }
    if (activeWindow.isNegative() || activeWindow.isZero()) {
      throw new IllegalArgumentException("activeWindow must be positive, got " + activeWindow);
    }
    if (!(activeThresholdBytesPerSecond >= 0) || Double.isInfinite(activeThresholdBytesPerSecond)) {
      throw new IllegalArgumentException(
          "activeThresholdBytesPerSecond must be a finite number >= 0, got " + activeThresholdBytesPerSecond);
    }
    if (topN < 0 || topN > 1000) {
      throw new IllegalArgumentException("topN must be 0..1000, got " + topN);
    }
  }

  /**
   * Handshake window 180 s; active above 1 KiB/s averaged over 10 s; top 10.
   *
   * <p>Why 1 KiB/s: an idle tunnel still moves a little: a 32-byte keepalive every 25 s (NetBird's
   * persistent keepalive) and a 148 + 92-byte handshake every 2 minutes, a few bytes per second on
   * average and at most ~300 bytes in one second. Anyone actually using the tunnel (a page load, a
   * voice call at ~10 KB/s, a video stream at 100 KB/s+) is far above 1 KiB/s. The sizing figure
   * "active users at 5 Mbps" counts users moving data, not enrolled devices; this line separates them.
   *
   * <p>Why a 10 s average: per-second rates of an interactive user flicker between zero and bursts; a
   * short average keeps a user who paused for a few seconds counted, and lets a finished download drop
   * out within a minute.
   */
  public static CensusConfig defaults() {
    return new CensusConfig(Duration.ofSeconds(180), 1024.0, Duration.ofSeconds(10), 10);
  }
}
