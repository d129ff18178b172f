package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Decides, each sample, what limits each direction now (link, CPU, one tunnel, or nothing), why (a {@link Cause}),
 * and what to do (advice with its {@link Ground}). It returns facts only; {@code serve.Explainer} puts them in words.
 *
 * <p>Every condition is debounced and has two levels: it turns on after {@link Thresholds#minConsecutive()} samples
 * in a row past its enter threshold and off after as many in a row past its exit threshold. The verdict is the
 * first condition that is on, in the order link-bound, CPU-bound (cores saturated, then at the CPU-derived
 * ceiling), single-tunnel-bound; otherwise headroom. One CPU carries both directions: while it is full for one of
 * them (its cores saturated, or the userspace datapath at its plateau) the other has no room either and is
 * CPU-bound too ({@link Cause#CPU_SHARED}), idle or not. Without a tunnel datapath nothing is judged
 * ({@link Verdict#NO_DATAPATH}). Each direction also carries its {@link SpareCapacity spare}.
 *
 * <p>Not thread-safe: one instance per daemon, fed by the single sampling thread. The {@link Judgement} it returns
 * is immutable and may be handed to other threads.
 *
 * <p>Usage:
 * <pre>{@code
 * Classifier c = new Classifier(Thresholds.defaults());
 * Judgement j = c.observe(o, CeilingSelector.selectBoth(o, profile, config, known.observed(), known.cost()));   // each sample
 * }</pre>
 */
public final class Classifier {
  /** A NIC at or above this line rate has no bigger sibling to move to: scale out instead (100 Gbps). */
  public static final double LARGEST_NIC_BYTES_PER_SECOND = Units.bytesPerSecond(100);
  /** Underlay MTU from which the underlay is taken as jumbo-capable. */
  public static final int JUMBO_UNDERLAY_MTU = 9000;
  /** A tunnel MTU at or below this is not jumbo: on a jumbo path it leaves most of the capacity unused. */
  public static final int STANDARD_MTU = 1500;

  private final Thresholds t;

  private final Map<Direction, Latch> carrying = Direction.each(d -> new Latch());
  private final Map<Direction, Latch> link = Direction.each(d -> new Latch());
  private final Map<Direction, Latch> cpu = Direction.each(d -> new Latch());
  private final Map<Direction, Latch> atCeiling = Direction.each(d -> new Latch());
  private final Map<Direction, Latch> flowCap = Direction.each(d -> new Latch());
  private final Map<Direction, Latch> single = Direction.each(d -> new Latch());
  private final Map<Direction, Latch> relayHeld = Direction.each(d -> new Latch());
  private final Map<Direction, RelayedLevel> relayedLevel = Direction.each(d -> new RelayedLevel());
  /** The CPU is saturated, whatever the traffic split: decides bigger_interface versus scale_out. */
  private final Latch cpuSaturated = new Latch();
  /** The userspace datapath is near its plateau in some direction. */
  private final Latch userspacePlateau = new Latch();
  /** Each direction's spare, held steady over a few samples. */
  private final Map<Direction, SpareCapacity.Steady> steady = Direction.each(d -> new SpareCapacity.Steady());
  /** The last judgement made on measured rates, held while a rate is unknown. */
  private final Map<Direction, Cause> lastCause = new EnumMap<>(Direction.class);

  public Classifier(Thresholds thresholds) {
    this.t = thresholds;
  }

  /** Judges one sample against the given ceilings (one per direction, e.g. from {@link CeilingSelector}). */
  public Judgement observe(Observation o, Map<Direction, Ceiling> ceilings) {
    double peer = peerCores(o);
    double usable = usableCores(o);
    boolean userspace = o.datapath().userspace();
    int n = t.minConsecutive();

    cpuSaturated.update(cpuSaturated(o, peer, usable, t.cpuEnter()), cpuSaturated(o, peer, usable, t.cpuExit()), n);

    if (Double.isNaN(o.throughput(Direction.DOWNLOAD)) || Double.isNaN(o.throughput(Direction.UPLOAD))) {
      // A sample whose rate is unknown judges nothing: no state moves (an unreadable counter is not idle), each
      // direction keeps its last cause, and its rate and utilization are unknown.
      return judgement(o, ceilings, Direction.each(d -> lastCause.getOrDefault(d, Cause.RATE_UNKNOWN)),
          Direction.each(d -> SpareCapacity.Spare.UNKNOWN), usable, peer);
    }
    boolean nearPlateauEnter = false;
    boolean nearPlateauStay = false;
    Map<Direction, Cause> causes = new EnumMap<>(Direction.class);
    for (Direction d : Direction.values()) {
      Ceiling ceiling = ceilings.get(d);
      double rate = o.throughput(d);
      double util = rate / ceiling.bytesPerSecond();
      boolean present = o.datapath() != Datapath.ABSENT;
      // Two levels, no debounce: a rate sitting on the floor does not toggle the other conditions.
      boolean carry = carrying.get(d).update(present && rate >= t.trafficFloorBytesPerSecond(),
          present && rate >= t.trafficFloorExitBytesPerSecond(), 1);
      double share = shareOf(o, d);

      double u = o.underlayUtilization(d);
      link.get(d).update(carry && u >= t.linkEnter(), carry && u >= t.linkExit(), n);
      cpu.get(d).update(carry && share >= t.trafficShare() && cpuSaturated(o, peer, usable, t.cpuEnter()),
          carry && share >= t.trafficShareExit() && cpuSaturated(o, peer, usable, t.cpuExit()), n);
      // Holding a CPU-derived ceiling is bound whatever the cores say: past ~16 cores decryption does not spread,
      // wireguard-go plateaus. A NIC-capped ceiling is the link's to judge when the line rate is known.
      boolean cpuCeiling = !(ceiling.linkCapped() && o.lineRate().isPresent());
      atCeiling.get(d).update(carry && cpuCeiling && util >= t.ceilingEnter(),
          carry && cpuCeiling && util >= t.ceilingExit(), n);
      flowCap.get(d).update(carry && atFlowCap(o, d, t.ceilingEnter()), carry && atFlowCap(o, d, t.ceilingExit()), n);
      single.get(d).update(carry && singleTunnel(o, d, util, false), carry && singleTunnel(o, d, util, true), n);
      double spread = relayedLevel.get(d).add(o.hottestTunnelRelayed(d) ? o.hottestTunnel(d) : Double.NaN);
      relayHeld.get(d).update(carry && spread <= Thresholds.RELAY_FLAT_SPREAD
              && o.hottestTunnel(d) >= t.singleTunnelShare() * rate,
          carry && spread <= Thresholds.RELAY_FLAT_SPREAD_EXIT
              && o.hottestTunnel(d) >= t.singleTunnelShareExit() * rate, n);

      // A direction the link holds back is not near the userspace plateau, whatever its utilization says.
      if (userspace && carry && !link.get(d).on) {
        double plateau = Units.bytesPerSecond(ReferenceProfile.plateauGbps(o.datapath(), d));
        nearPlateauEnter |= util >= t.nearCeiling() || rate >= t.userspacePlateauShare() * plateau;
        nearPlateauStay |= util >= t.nearCeilingExit()
            || rate >= (t.userspacePlateauShare() - Thresholds.HYSTERESIS_GAP) * plateau;
      }

      Cause held = ladder(link.get(d).on, cpu.get(d).on, atCeiling.get(d).on, flowCap.get(d).on, single.get(d).on,
          relayHeld.get(d).on);
      Cause cause = held != null ? held : !present ? Cause.NO_DATAPATH : carry ? Cause.ROOM : Cause.IDLE;
      causes.put(d, cause);
    }
    userspacePlateau.update(nearPlateauEnter, nearPlateauStay, n);
    boolean full = cpuFullForTraffic(userspace, causes);
    if (full) {
      // Idle too: an SRE asking "can this peer take a backup now?" must read no, not headroom at 0 %.
      causes.replaceAll((d, c) -> c == Cause.ROOM || c == Cause.IDLE ? Cause.CPU_SHARED : c);
    }
    lastCause.putAll(causes);
    Map<Direction, SpareCapacity.Spare> spare = SpareCapacity.of(o, ceilings);
    // The CPU judged full is no room, whatever share of it the last busy reading left: the spare says what the
    // verdict says, at once.
    return judgement(o, ceilings, causes, Direction.each(d -> full ? steady.get(d).full(spare.get(d))
        : steady.get(d).add(spare.get(d))), usable, peer);
  }

  /**
   * The one ladder that names what holds a direction, used by the daemon each sample and by {@code headroom
   * profile} on a plateau: the first condition that holds, in the order link, cores, at the ceiling, the cloud's
   * flow cap, one tunnel's core, a relayed tunnel held by its relay; null when none does.
   */
  public static Cause ladder(boolean linkFull, boolean coresSaturated, boolean atCeiling, boolean atFlowCap,
      boolean oneTunnelCore, boolean relayHeld) {
    return linkFull ? Cause.LINK_FULL
        : coresSaturated ? Cause.CORES_SATURATED
        : atCeiling ? Cause.AT_CEILING
        : atFlowCap ? Cause.FLOW_CAP
        : oneTunnelCore ? Cause.ONE_TUNNEL_CORE
        : relayHeld ? Cause.RELAY_HELD
        : null;
  }

  /** Each direction's rate against its ceiling with its cause, and the advice that follows. */
  private Judgement judgement(Observation o, Map<Direction, Ceiling> ceilings, Map<Direction, Cause> causes,
      Map<Direction, SpareCapacity.Spare> spare, double usable, double peer) {
    Map<Direction, DirectionJudgement> out = new EnumMap<>(Direction.class);
    for (Direction d : Direction.values()) {
      Ceiling c = ceilings.get(d);
      out.put(d, new DirectionJudgement(d, c, o.throughput(d) / c.bytesPerSecond(), causes.get(d), spare.get(d)));
    }
    return new Judgement(o, usable, out, advise(o, out, peer));
  }

  /**
   * The CPU that carries the datapath is full because of tunnel traffic: the cores are saturated while a direction
   * carries most of the bytes (whatever else holds that direction, e.g. the link too), or the userspace datapath
   * holds its plateau. A CPU busy with other work beside an idle tunnel is not this; nor is the kernel decrypt knee,
   * where upload stops spreading while other cores idle for download.
   */
  private boolean cpuFullForTraffic(boolean userspace, Map<Direction, Cause> causes) {
    for (Direction d : Direction.values()) {
      if ((cpuSaturated.on && cpu.get(d).on) || (userspace && causes.get(d) == Cause.AT_CEILING)) {
        return true;
      }
    }
    return false;
  }

  // ---- conditions

  /** Cores the peer has: online cores, or fewer under a CPU quota (fractional). */
  public static double peerCores(Observation o) {
    return peerCores(o.onlineCores() > 0 ? o.onlineCores() : Math.max(1, o.coreBusy().length), o.cpuQuotaCores());
  }

  /** Online cores, or fewer under a CPU quota in cores (NaN or <= 0: none). */
  static double peerCores(double online, double quotaCores) {
    return Double.isNaN(quotaCores) || quotaCores <= 0 ? online : Math.min(online, quotaCores);
  }

  /** Cores the datapath can keep busy: the peer's for kernel; for userspace also no more than its limit and the ~3-5 wireguard-go uses. */
  static double usableCores(Observation o) {
    double peer = peerCores(o);
    if (!o.datapath().userspace()) {
      return peer;
    }
    double usable = Math.min(peer, ReferenceProfile.userspaceUsableCores((int) Math.ceil(peer)));
    if (!Double.isNaN(o.datapathCpuLimitCores()) && o.datapathCpuLimitCores() > 0) {
      usable = Math.min(usable, o.datapathCpuLimitCores());
    }
    return usable;
  }

  private static boolean cpuSaturated(Observation o, double peer, double usable, double threshold) {
    double total = o.totalBusyCores();
    if (!Double.isNaN(total) && total >= threshold * peer) {
      return true; // every core the peer may use busy, softirq included: nothing left for the datapath
    }
    if (!o.datapath().userspace()) {
      return false;
    }
    // Pinned or confined, the process can be starved on its own cores while others idle: those cores full
    // is CPU-bound for the datapath, whoever else runs on them.
    if (!Double.isNaN(o.datapathAllowedBusy()) && o.datapathAllowedBusy() >= threshold) {
      return true;
    }
    return !Double.isNaN(o.datapathCpuCores()) && o.datapathCpuCores() >= threshold * usable;
  }

  /** The busiest tunnel of this direction at the underlay's single-flow cap. */
  private static boolean atFlowCap(Observation o, Direction d, double level) {
    double cap = o.flowCapBytesPerSecond();
    double hottest = o.hottestTunnel(d);
    return !Double.isNaN(cap) && !Double.isNaN(hottest) && hottest >= level * cap;
  }

  /**
   * One pegged core carrying this direction: the hot core must be the datapath's, the other cores idle, and the
   * direction must be carrying its own traffic (not only the ACKs of the other); with per-tunnel rates, the
   * busiest tunnel must carry most of this direction. {@code staying} reads every level on its exit side.
   */
  private boolean singleTunnel(Observation o, Direction d, double util, boolean staying) {
    double hot = o.hottestBusy();
    double others = o.meanBusyOfOthers();
    if (Double.isNaN(hot) || Double.isNaN(others)
        || hot < (staying ? t.coreExit() : t.coreEnter())
        || others >= (staying ? t.othersIdleExit() : t.othersIdle())) {
      return false;
    }
    // At the ceiling the peer, not one tunnel, is the limit; once on, the at-ceiling verdict takes precedence.
    if (!staying && util >= t.ceilingEnter()) {
      return false;
    }
    // A core pegged by other work beside a light tunnel is not a tunnel at its limit: when the datapath's CPU is
    // known it must come to about half a core or more.
    double dp = o.datapathCpuCores();
    if (!Double.isNaN(dp) && dp < (staying ? t.datapathCoresExit() : Thresholds.DATAPATH_CORES_ENTER)) {
      return false;
    }
    if (shareOf(o, d) < (staying ? t.trafficShareExit() : t.trafficShare())) {
      return false;
    }
    double hottest = o.hottestTunnel(d);
    return Double.isNaN(hottest)
        || hottest >= (staying ? t.singleTunnelShareExit() : t.singleTunnelShare()) * o.throughput(d);
  }

  private static double shareOf(Observation o, Direction d) {
    double total = o.totalThroughput();
    return total > 0 ? o.throughput(d) / total : 0;
  }

  // ---- advice

  /** Advice in the order to act on it, each with the fact it rests on; {@code none} when nothing applies. */
  private List<AdviceItem> advise(Observation o, Map<Direction, DirectionJudgement> js, double peer) {
    List<AdviceItem> items = new ArrayList<>();
    boolean userspace = o.datapath().userspace();
    boolean anyBound = false;
    for (DirectionJudgement j : js.values()) {
      Direction d = j.direction();
      anyBound |= j.verdict().bound();
      // The shared CPU's fix is the one for the direction that fills it: no advice of its own.
      if (j.verdict() == Verdict.CPU_BOUND && j.cause() != Cause.CPU_SHARED) {
        boolean pastKnee = ReferenceProfile.pastKnee(o.datapath(), peer);
        if (userspace) {
          add(items, Advice.ENABLE_KERNEL_WIREGUARD, d, Ground.USERSPACE_BOUND);
          if (!pastKnee) {
            add(items, Advice.SCALE_UP, d, Ground.USERSPACE_BELOW_KNEE);
          } else {
            add(items, Advice.SCALE_OUT, d, Ground.USERSPACE_BOUND);
          }
        } else if (!pastKnee) {
          add(items, Advice.SCALE_UP, d, Ground.BELOW_KNEE);
        } else {
          add(items, Advice.SCALE_OUT, d, Ground.PAST_KNEE);
        }
      } else if (j.cause() == Cause.RELAY_HELD) {
        add(items, Advice.DIRECT_PATH, d, Ground.RELAYED_TUNNEL);
      } else if (j.verdict() == Verdict.LINK_BOUND) {
        if (o.lineRate().orElse(0) >= LARGEST_NIC_BYTES_PER_SECOND) {
          add(items, Advice.SCALE_OUT, d, Ground.LARGEST_NIC);
        } else if (cpuSaturated.on) {
          add(items, Advice.SCALE_OUT, d, Ground.LINK_AND_CPU_FULL);
        } else {
          add(items, Advice.BIGGER_INTERFACE, d, Ground.LINK_FULL_CPU_ROOM);
        }
      }
    }
    if (userspace && userspacePlateau.on && items.stream().noneMatch(a -> a.advice() == Advice.ENABLE_KERNEL_WIREGUARD)) {
      add(items, Advice.ENABLE_KERNEL_WIREGUARD, null, Ground.USERSPACE_NEAR_PLATEAU);
    }
    // Jumbo frames are a datacenter lever: only where the path carries them end to end, never on the underlay's
    // MTU alone (every AWS instance has 9001 and most serve users across the internet).
    if (anyBound && o.jumboPath() && o.underlayMtu() >= JUMBO_UNDERLAY_MTU && o.tunnelMtu() <= STANDARD_MTU) {
      add(items, Advice.RAISE_MTU, null, Ground.JUMBO_PATH);
    }
    if (items.isEmpty()) {
      items.add(new AdviceItem(Advice.NONE, null, anyBound ? Ground.ONE_TUNNEL
          : o.datapath() == Datapath.ABSENT ? Ground.NO_DATAPATH : Ground.ROOM));
    }
    return items;
  }

  /** Adds an item; the same advice on the same ground for the other direction becomes one item for both. */
  private static void add(List<AdviceItem> items, Advice a, Direction d, Ground g) {
    for (int i = 0; i < items.size(); i++) {
      AdviceItem x = items.get(i);
      if (x.advice() == a && x.ground() == g) {
        if (x.direction() != d) {
          items.set(i, new AdviceItem(a, null, g));
        }
        return;
      }
    }
    items.add(new AdviceItem(a, d, g));
  }

  /**
   * The busiest tunnel's level while it is relayed, over the last {@link Thresholds#RELAY_FLAT_SAMPLES} samples: a
   * relay holds its flow flat where a flow that only lacks demand wanders. The census refreshes the level every
   * census interval, so the window spans several censuses.
   */
  static final class RelayedLevel {
    private final double[] recent = new double[Thresholds.RELAY_FLAT_SAMPLES];
    private int filled;
    private int next;

    /**
     * Adds one sample's level (NaN: not relayed or unknown, which starts over) and returns the window's spread,
     * (max - min) / max; infinite until the window is full.
     */
    double add(double level) {
      if (Double.isNaN(level) || !(level > 0)) {
        filled = 0;
        return Double.POSITIVE_INFINITY;
      }
      recent[next] = level;
      next = (next + 1) % recent.length;
      filled = Math.min(recent.length, filled + 1);
      if (filled < recent.length) {
        return Double.POSITIVE_INFINITY;
      }
      double min = Double.POSITIVE_INFINITY;
      double max = 0;
      for (double v : recent) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      return (max - min) / max;
    }
  }

  /** A debounced condition: on after n samples in a row of {@code enter}, off after n in a row without {@code stay}. */
  static final class Latch {
    boolean on;
    private int streak;

    boolean update(boolean enter, boolean stay, int n) {
      boolean want = on ? stay : enter;
      if (want == on) {
        streak = 0;
      } else if (++streak >= n) {
        on = want;
        streak = 0;
      }
      return on;
    }
  }
}
