package dev.headroom.judge;

/**
 * The numbers the {@link Classifier} judges by. Each condition turns on after {@code minConsecutive} samples past
 * its enter threshold and off after {@code minConsecutive} samples past its exit threshold, so a value hovering
 * around one threshold cannot make the verdict flap. Every threshold that decides a state has both: the pairs
 * below are given, the rest ({@link #othersIdleExit()}, {@link #singleTunnelShareExit()}, {@link #trafficShareExit()},
 * {@link #trafficFloorExitBytesPerSecond()}, {@link #datapathCoresExit()}) sit {@value #HYSTERESIS_GAP} (or a fifth of
 * the floor) on the far side of their enter level. See docs/verdict.md for the evidence behind each default.
 *
 * <p>Usage: {@code new Classifier(Thresholds.defaults().withCpuSaturation(cfg.cpuSaturation()));}
 *
 * @param linkEnter          underlay side utilization that makes a direction link-bound (0.90)
 * @param linkExit           ... and below which it stops being link-bound (0.80)
 * @param cpuEnter           mean busy of all online cores, or the userspace process's share of the cores it can
 *                           use, that makes the peer CPU-bound (0.90; {@code --cpu.saturation})
 * @param cpuExit            ... and below which it stops (0.80)
 * @param coreEnter          busy ratio of the hottest core for single-tunnel-bound (0.90)
 * @param coreExit           ... and below which it stops (0.80)
 * @param othersIdle         the other cores' mean busy must stay below this for single-tunnel-bound (0.50)
 * @param singleTunnelShare  when per-tunnel rates are known, the hottest tunnel's share of the direction (0.50)
 * @param trafficFloorBytesPerSecond a direction below this rate is never judged bound (1,000,000 B/s = 8 Mbps)
 * @param trafficShare       a direction needs this share of all tunnel bytes to take a CPU verdict (0.40)
 * @param ceilingEnter       utilization of a CPU-derived ceiling that makes a direction bound at that ceiling, busy
 *                           cores or not (0.90)
 * @param ceilingExit        ... and below which it stops (0.80)
 * @param nearCeiling        utilization against the ceiling counted as near it (0.80)
 * @param nearCeilingExit    ... and below which it stops counting (0.70)
 * @param userspacePlateauShare share of the userspace plateau (6.8 / 4.4 Gbps) counted as at the plateau (0.90)
 * @param minConsecutive     samples a condition must hold (or fail) in a row before it changes (3)
 */
public record Thresholds(
    double linkEnter,
    double linkExit,
    double cpuEnter,
    double cpuExit,
    double coreEnter,
    double coreExit,
    double othersIdle,
    double singleTunnelShare,
    double trafficFloorBytesPerSecond,
    double trafficShare,
    double ceilingEnter,
    double ceilingExit,
    double nearCeiling,
    double nearCeilingExit,
    double userspacePlateauShare,
    int minConsecutive) {

  /** Gap between an enter threshold and its exit threshold when only the enter one is given. */
  public static final double HYSTERESIS_GAP = 0.10;

  /** Datapath CPU, in cores, from which a pegged core can be the tunnel's own (it uses most of that core). */
  public static final double DATAPATH_CORES_ENTER = 0.5;
  /**
   * A relayed busiest tunnel is held by its relay when its level over the last {@link #RELAY_FLAT_SAMPLES} samples
   * (three censuses at the default 5 s) spreads by no more than this share of its top: a relay's rate limit and the
   * UDP buffers in front of it hold a flow flat, while demand-bound traffic wanders.
   */
  public static final double RELAY_FLAT_SPREAD = 0.15;
  /** The spread at which a relay-held tunnel is let go. */
  public static final double RELAY_FLAT_SPREAD_EXIT = 0.30;
  /** Samples the relayed level is judged over. */
  public static final int RELAY_FLAT_SAMPLES = 15;

  /** The documented defaults. */
  public static Thresholds defaults() {
    return new Thresholds(0.90, 0.80, 0.90, 0.80, 0.90, 0.80, 0.50, 0.50, 1_000_000, 0.40, 0.90, 0.80, 0.80, 0.70,
        0.90, 3);
  }

  /** The other cores' mean busy below which a single-tunnel verdict, once on, holds (othersIdle + gap). */
  public double othersIdleExit() {
    return Math.min(1, othersIdle + HYSTERESIS_GAP);
  }

  /** The busiest tunnel's share of a direction above which a single-tunnel verdict, once on, holds. */
  public double singleTunnelShareExit() {
    return Math.max(singleTunnelShare / 2, singleTunnelShare - HYSTERESIS_GAP);
  }

  /** A direction's share of tunnel bytes above which a CPU verdict, once on, holds. */
  public double trafficShareExit() {
    return Math.max(trafficShare / 2, trafficShare - HYSTERESIS_GAP);
  }

  /** The rate above which a direction, once carrying, still counts as carrying (four fifths of the floor). */
  public double trafficFloorExitBytesPerSecond() {
    return trafficFloorBytesPerSecond * 0.8;
  }

  /** Datapath CPU above which a single-tunnel verdict, once on, holds. */
  public double datapathCoresExit() {
    return DATAPATH_CORES_ENTER - HYSTERESIS_GAP;
  }

  /** Sets the CPU and hot-core enter thresholds ({@code --cpu.saturation}); exits sit {@value #HYSTERESIS_GAP} below. */
  public Thresholds withCpuSaturation(double saturation) {
    double exit = Math.max(saturation - HYSTERESIS_GAP, saturation / 2);
    return new Thresholds(linkEnter, linkExit, saturation, exit, saturation, exit, othersIdle, singleTunnelShare,
        trafficFloorBytesPerSecond, trafficShare, ceilingEnter, ceilingExit, nearCeiling, nearCeilingExit,
        userspacePlateauShare, minConsecutive);
  }
}
