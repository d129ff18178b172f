package dev.headroom.judge;

import static dev.headroom.judge.Units.gbpsText;
import static dev.headroom.judge.Units.num;
import static dev.headroom.judge.Units.pct;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Judges each sample: what limits each direction now (link, CPU, one tunnel, or nothing) and what to do.
 *
 * <p>Every condition is debounced: it turns on after {@link Thresholds#minConsecutive()} samples in a row past its
 * enter threshold and off after as many in a row below its (lower) exit threshold. The verdict is the first
 * condition that is on, in the order link-bound, CPU-bound, single-tunnel-bound; otherwise headroom.
 *
 * <p>Not thread-safe: one instance per daemon, fed by the single sampling thread. The {@link Judgement} it returns
 * is immutable and may be handed to other threads.
 *
 * <p>Usage:
 * <pre>{@code
 * Classifier c = new Classifier(Thresholds.defaults(), ProfileFile.readIfPresent(path).orElse(null), config);
 * Judgement j = c.observe(observation);   // each sample
 * }</pre>
 */
public final class Classifier {
  /** A NIC at or above this line rate has no bigger sibling to move to: scale out instead (100 Gbps). */
  public static final double LARGEST_NIC_BYTES_PER_SECOND = Units.bytesPerSecond(100);
  /** Datapath CPU below which a pegged core cannot be the tunnel's own (it would use most of that core). */
  static final double SINGLE_TUNNEL_MIN_DATAPATH_CORES = 0.5;
  /** Underlay MTU from which the underlay is taken as jumbo-capable. */
  public static final int JUMBO_UNDERLAY_MTU = 9000;

  private final Thresholds t;
  private volatile MeasuredProfile profile;
  private volatile ConfigCeilings config;

  private final Map<Direction, Latch> link = latches();
  private final Map<Direction, Latch> cpu = latches();
  private final Map<Direction, Latch> single = latches();
  /** The CPU is saturated, whatever the traffic split: decides bigger_interface versus scale_out. */
  private final Latch cpuSaturated = new Latch();
  /** The userspace datapath is near its plateau in some direction. */
  private final Latch userspacePlateau = new Latch();

  /** {@code profile} may be null; {@code config} may be {@link ConfigCeilings#NONE}. */
  public Classifier(Thresholds thresholds, MeasuredProfile profile, ConfigCeilings config) {
    this.t = thresholds;
    this.profile = profile;
    this.config = config == null ? ConfigCeilings.NONE : config;
  }

  /** Replaces the measured profile (e.g. after {@code headroom profile} rewrote the file); null for none. */
  public void setProfile(MeasuredProfile profile) {
    this.profile = profile;
  }

  /** Replaces the configured ceilings. */
  public void setConfig(ConfigCeilings config) {
    this.config = config == null ? ConfigCeilings.NONE : config;
  }

  public Thresholds thresholds() {
    return t;
  }

  /** Judges one sample with ceilings chosen by {@link CeilingSelector}. */
  public Judgement observe(Observation o) {
    return observe(o, CeilingSelector.selectBoth(o, profile, config));
  }

  /** Judges one sample against the given ceilings (one per direction). */
  public Judgement observe(Observation o, Map<Direction, Ceiling> ceilings) {
    Map<Direction, DirectionJudgement> out = new EnumMap<>(Direction.class);
    double usable = usableCores(o);
    boolean userspace = o.datapath() == Datapath.USERSPACE;

    cpuSaturated.update(cpuSaturated(o, usable, t.cpuEnter()), cpuSaturated(o, usable, t.cpuExit()), t.minConsecutive());

    boolean nearPlateauEnter = false;
    boolean nearPlateauStay = false;
    for (Direction d : Direction.values()) {
      Ceiling ceiling = ceilings.get(d);
      if (ceiling == null) {
        throw new IllegalArgumentException("no ceiling for " + d.label());
      }
      double rate = o.throughput(d);
      double util = rate / ceiling.bytesPerSecond();
      boolean carrying = o.datapath() != Datapath.ABSENT && rate >= t.trafficFloorBytesPerSecond();
      boolean share = carrying && shareOf(o, d) >= t.trafficShare();

      double u = o.underlayUtilization(d);
      link.get(d).update(carrying && u >= t.linkEnter(), carrying && u >= t.linkExit(), t.minConsecutive());
      cpu.get(d).update(share && cpuSaturated(o, usable, t.cpuEnter()), share && cpuSaturated(o, usable, t.cpuExit()),
          t.minConsecutive());
      single.get(d).update(carrying && singleTunnel(o, d, util, t.coreEnter()),
          carrying && singleTunnel(o, d, util, t.coreExit()), t.minConsecutive());

      // A direction the link holds back is not near the userspace plateau, whatever its utilization says.
      if (userspace && carrying && !link.get(d).on) {
        double plateau = Units.bytesPerSecond(ReferenceProfile.userspacePlateauGbps(d));
        nearPlateauEnter |= util >= t.nearCeiling() || rate >= t.userspacePlateauShare() * plateau;
        nearPlateauStay |= util >= t.nearCeilingExit()
            || rate >= (t.userspacePlateauShare() - Thresholds.HYSTERESIS_GAP) * plateau;
      }

      Verdict v = link.get(d).on ? Verdict.LINK_BOUND
          : cpu.get(d).on ? Verdict.CPU_BOUND
          : single.get(d).on ? Verdict.SINGLE_TUNNEL_BOUND
          : Verdict.HEADROOM;
      out.put(d, new DirectionJudgement(d, rate, ceiling, util, v, reason(o, d, v, ceiling, util, usable, carrying)));
    }
    userspacePlateau.update(nearPlateauEnter, nearPlateauStay, t.minConsecutive());
    return new Judgement(o.datapath(), out, advise(o, out, usable));
  }

  // ---- conditions

  /** Cores the datapath can keep busy: all online cores for kernel; for userspace the fewest of online, its limit, and the ~3-5 wireguard-go uses. */
  static double usableCores(Observation o) {
    int online = o.onlineCores() > 0 ? o.onlineCores() : Math.max(1, o.coreBusy().length);
    if (o.datapath() != Datapath.USERSPACE) {
      return online;
    }
    double usable = Math.min(online, ReferenceProfile.userspaceUsableCores(online));
    if (!Double.isNaN(o.datapathCpuLimitCores()) && o.datapathCpuLimitCores() > 0) {
      usable = Math.min(usable, o.datapathCpuLimitCores());
    }
    return usable;
  }

  private static boolean cpuSaturated(Observation o, double usable, double threshold) {
    double mean = o.meanBusy();
    if (!Double.isNaN(mean) && mean >= threshold) {
      return true; // every core busy, softirq included: nothing left for the datapath
    }
    if (o.datapath() != Datapath.USERSPACE) {
      return false;
    }
    // Pinned or confined, the process can be starved on its own cores while others idle: those cores full
    // is CPU-bound for the datapath, whoever else runs on them.
    if (!Double.isNaN(o.datapathAllowedBusy()) && o.datapathAllowedBusy() >= threshold) {
      return true;
    }
    return !Double.isNaN(o.datapathCpuCores()) && o.datapathCpuCores() >= threshold * usable;
  }

  private boolean singleTunnel(Observation o, Direction d, double util, double coreThreshold) {
    double hot = o.hottestBusy();
    double others = o.meanBusyOfOthers();
    if (Double.isNaN(hot) || Double.isNaN(others) || hot < coreThreshold || others >= t.othersIdle()
        || util >= t.cpuEnter()) {
      return false;
    }
    // The full core must be the datapath's: a core pegged by other work beside a light tunnel is not a
    // tunnel at its limit. When the datapath's CPU is known it must come to about half a core or more.
    if (!Double.isNaN(o.datapathCpuCores()) && o.datapathCpuCores() < SINGLE_TUNNEL_MIN_DATAPATH_CORES) {
      return false;
    }
    double rate = o.throughput(d);
    double hottest = o.hottestTunnel(d);
    if (!Double.isNaN(hottest)) {
      return hottest >= t.singleTunnelShare() * rate;
    }
    return shareOf(o, d) >= t.trafficShare();
  }

  private static double shareOf(Observation o, Direction d) {
    double total = o.totalThroughput();
    return total > 0 ? o.throughput(d) / total : 0;
  }

  // ---- words

  private String reason(Observation o, Direction d, Verdict v, Ceiling c, double util, double usable, boolean carrying) {
    String dir = d.label();
    String rate = gbpsText(o.throughput(d));
    return switch (v) {
      case LINK_BOUND -> dir + " is link-bound: underlay " + side(d) + " at " + pct(o.underlayUtilization(d))
          + lineRateText(o) + ", tunnel carrying " + rate;
      case CPU_BOUND -> dir + " is CPU-bound at " + rate + ": " + cpuText(o, usable);
      case SINGLE_TUNNEL_BOUND -> dir + " is held by one tunnel: the busiest core is " + pct(o.hottestBusy())
          + " busy while the others average " + pct(o.meanBusyOfOthers())
          + (Double.isNaN(o.hottestTunnel(d)) ? "" : "; the busiest tunnel carries "
              + pct(o.hottestTunnel(d) / o.throughput(d)) + " of " + dir)
          + "; the peer is at " + pct(util) + " of its " + gbpsText(c.bytesPerSecond()) + " ceiling";
      case HEADROOM -> !carrying && o.datapath() == Datapath.ABSENT ? dir + ": no tunnel datapath"
          : !carrying ? dir + " idle (" + rate + ", below the " + gbpsText(t.trafficFloorBytesPerSecond()) + " floor)"
          : dir + " at " + rate + ", " + pct(util) + " of its " + gbpsText(c.bytesPerSecond()) + " ceiling";
    };
  }

  private static String side(Direction d) {
    return d == Direction.DOWNLOAD ? "transmit" : "receive";
  }

  private static String lineRateText(Observation o) {
    return o.lineRate().isPresent() ? " of the " + gbpsText(o.lineRate().getAsDouble()) + " line rate" : " of its line rate";
  }

  private static String cpuText(Observation o, double usable) {
    String cores = o.onlineCores() + " online cores " + pct(o.meanBusy()) + " busy on average";
    if (o.datapath() == Datapath.USERSPACE && !Double.isNaN(o.datapathCpuCores())) {
      return "the userspace datapath uses " + num(o.datapathCpuCores(), 1) + " of the ~" + num(usable, 1)
          + " cores it can use (" + cores + ")";
    }
    return cores;
  }

  // ---- advice

  private List<AdviceItem> advise(Observation o, Map<Direction, DirectionJudgement> js, double usable) {
    Map<Advice, List<String>> a = new EnumMap<>(Advice.class);
    boolean userspace = o.datapath() == Datapath.USERSPACE;
    int cores = o.onlineCores();
    boolean anyBound = false;
    for (DirectionJudgement j : js.values()) {
      Direction d = j.direction();
      anyBound |= j.verdict().bound();
      if (j.verdict() == Verdict.CPU_BOUND) {
        if (userspace) {
          add(a, Advice.ENABLE_KERNEL_WIREGUARD, d.label() + " is CPU-bound in userspace WireGuard at "
              + gbpsText(j.throughputBytesPerSecond()) + ": wireguard-go keeps only ~3-5 cores busy however many there"
              + " are (reference plateau ~" + num(ReferenceProfile.userspacePlateauGbps(d), 1) + " Gbps " + d.label()
              + "); kernel WireGuard gives " + num(ReferenceProfile.tableGbps(Datapath.KERNEL, Math.max(cores, 1), d), 1)
              + " Gbps on " + Math.max(cores, 1) + " cores");
          if (cores < ReferenceProfile.USERSPACE_KNEE_CORES) {
            add(a, Advice.SCALE_UP, d.label() + " is CPU-bound on " + cores + " cores; userspace WireGuard still gains up to "
                + ReferenceProfile.USERSPACE_KNEE_CORES + " cores (reference "
                + num(ReferenceProfile.tableGbps(Datapath.USERSPACE, ReferenceProfile.USERSPACE_KNEE_CORES, d), 1)
                + " Gbps " + d.label() + ")");
          }
        } else if (cores < ReferenceProfile.KNEE_CORES) {
          add(a, Advice.SCALE_UP, d.label() + " is CPU-bound at " + gbpsText(j.throughputBytesPerSecond()) + " on "
              + cores + " cores; the reference grows to " + num(ReferenceProfile.tableGbps(o.datapath(), 16, d), 1)
              + " Gbps " + d.label() + " at " + ReferenceProfile.KNEE_CORES + " cores: add cores, up to 16");
        } else {
          String why = d == Direction.UPLOAD
              ? "decryption flattens at ~15 Gbps upload from 16 cores"
              : "past 16 cores download gains little (reference 20 Gbps at 16, 31 Gbps at 64)";
          add(a, Advice.SCALE_OUT, d.label() + " is CPU-bound at " + gbpsText(j.throughputBytesPerSecond()) + " on "
              + cores + " cores and " + why + ": add a routing peer in its own Network");
        }
      } else if (j.verdict() == Verdict.LINK_BOUND) {
        double line = o.lineRate().orElse(Double.NaN);
        String lineText = Double.isNaN(line) ? "its line rate" : gbpsText(line);
        if (!Double.isNaN(line) && line >= LARGEST_NIC_BYTES_PER_SECOND) {
          add(a, Advice.SCALE_OUT, d.label() + " fills a " + lineText + " NIC, and there is no bigger one to have:"
              + " add a routing peer in its own Network");
        } else if (cpuSaturated.on) {
          add(a, Advice.SCALE_OUT, d.label() + " fills the " + lineText + " NIC and the CPU is saturated too ("
              + cpuText(o, usable) + "): a bigger NIC alone would not help; add a routing peer");
        } else {
          add(a, Advice.BIGGER_INTERFACE, d.label() + " fills the " + lineText + " NIC ("
              + pct(o.underlayUtilization(d)) + " " + side(d) + ") while the CPU has room ("
              + cpuText(o, usable) + "); the reference says " + Math.max(cores, 1) + " cores need a "
              + num(ReferenceProfile.interfaceGbps(Math.max(cores, 1)), 1) + " Gbps interface");
        }
      }
    }
    if (userspace && userspacePlateau.on && !a.containsKey(Advice.ENABLE_KERNEL_WIREGUARD)) {
      add(a, Advice.ENABLE_KERNEL_WIREGUARD, "the userspace datapath is near its plateau (download "
          + gbpsText(o.downloadBytesPerSecond()) + ", upload " + gbpsText(o.uploadBytesPerSecond())
          + "; userspace WireGuard tops out near 6.8 Gbps download and 3.7-4.4 Gbps upload with idle cores left);"
          + " kernel WireGuard gives " + num(ReferenceProfile.tableGbps(Datapath.KERNEL, Math.max(cores, 1),
              Direction.DOWNLOAD), 1) + " Gbps download on " + Math.max(cores, 1) + " cores");
    }
    if (anyBound && o.underlayMtu() >= JUMBO_UNDERLAY_MTU && o.tunnelMtu() <= ReferenceProfile.BASE_MTU) {
      add(a, Advice.RAISE_MTU, "the underlay MTU is " + o.underlayMtu() + " (jumbo) but the tunnel runs at "
          + o.tunnelMtu() + ": on 64 cores kernel WireGuard went from 31 to 95 Gbps download and 15 to 66 Gbps upload"
          + " at tunnel MTU 8920; NetBird accepts --mtu up to 8192, set on every client and peer of the Network");
    }
    List<AdviceItem> items = new ArrayList<>();
    a.forEach((k, v) -> items.add(new AdviceItem(k, String.join("; ", v))));
    if (items.isEmpty()) {
      DirectionJudgement dn = js.get(Direction.DOWNLOAD);
      DirectionJudgement up = js.get(Direction.UPLOAD);
      String why = anyBound
          ? "one tunnel is at its own limit; neither more cores nor more peers raise one tunnel's rate"
          : "download at " + pct(dn.utilization()) + " and upload at " + pct(up.utilization()) + " of their ceilings";
      items.add(new AdviceItem(Advice.NONE, "nothing to do: " + why));
    }
    return items;
  }

  private static void add(Map<Advice, List<String>> a, Advice k, String reason) {
    a.computeIfAbsent(k, x -> new ArrayList<>()).add(reason);
  }

  private static Map<Direction, Latch> latches() {
    Map<Direction, Latch> m = new EnumMap<>(Direction.class);
    for (Direction d : Direction.values()) {
      m.put(d, new Latch());
    }
    return m;
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
