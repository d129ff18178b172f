package dev.headroom.serve;

import static dev.headroom.judge.Units.gbpsText;
import static dev.headroom.judge.Units.num;
import static dev.headroom.judge.Units.pct;

import dev.headroom.judge.Advice;
import dev.headroom.judge.AdviceItem;
import dev.headroom.judge.Cause;
import dev.headroom.judge.Ceiling;
import dev.headroom.judge.CeilingSource;
import dev.headroom.judge.Classifier;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.DirectionJudgement;
import dev.headroom.judge.Ground;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.Observation;
import dev.headroom.judge.ObservedCeiling;
import dev.headroom.judge.PacketSize;
import dev.headroom.judge.ProfileFile;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.SpareCapacity;
import dev.headroom.judge.ThisCpu;
import dev.headroom.judge.Units;
import dev.headroom.judge.Verdict;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Puts a {@link Judgement}'s facts into words, for the live page, {@code /api/v1/status} and {@code check}. It
 * decides nothing: every number it quotes is the observation's or the {@link ReferenceProfile}'s.
 *
 * <p>Usage: {@code String why = Explainer.reason(judgement, Direction.UPLOAD);}
 */
public final class Explainer {
  private Explainer() {}

  /** Grounds about the peer as a whole, never about one direction. */
  private static final Set<Ground> PEER_WIDE =
      EnumSet.of(Ground.ROOM, Ground.NO_DATAPATH, Ground.ONE_TUNNEL, Ground.USERSPACE_NEAR_PLATEAU, Ground.JUMBO_PATH);

  /** The verdict as a heading: "Link-bound", "At its CPU ceiling", ... */
  public static String headline(DirectionJudgement j) {
    return j.cause() == Cause.AT_CEILING ? "CPU-bound: at its ceiling"
        : j.cause() == Cause.CPU_SHARED ? "CPU-bound: the CPU is shared" : verdictWords(j.verdict());
  }

  public static String verdictWords(Verdict v) {
    return switch (v) {
      case HEADROOM -> "Headroom";
      case CPU_BOUND -> "CPU-bound";
      case LINK_BOUND -> "Link-bound";
      case SINGLE_TUNNEL_BOUND -> "One tunnel at its limit";
      case NO_DATAPATH -> "No tunnel datapath";
    };
  }

  /** An advice label in words ("none" has nothing to name: empty). */
  public static String adviceWords(Advice a) {
    return switch (a) {
      case NONE -> "";
      case SCALE_UP -> "Scale up";
      case SCALE_OUT -> "Scale out";
      case ENABLE_KERNEL_WIREGUARD -> "Enable kernel WireGuard";
      case RAISE_MTU -> "Raise the MTU";
      case BIGGER_INTERFACE -> "Bigger interface";
      case DIRECT_PATH -> "Give the relayed client a direct path";
    };
  }

  /** Why a direction has its verdict, in a sentence with numbers. */
  public static String reason(Judgement jm, Direction d) {
    Observation o = jm.observation();
    DirectionJudgement j = jm.of(d);
    String dir = d.label();
    String rate = gbpsText(o.throughput(d));
    Ceiling c = j.ceiling();
    if (Double.isNaN(o.throughput(d)) && j.cause() != Cause.RATE_UNKNOWN) {
      return dir + " rate unknown in this interval (tunnel counters unreadable or implausible): the last verdict, "
          + verdictWords(j.verdict()) + " (" + j.cause().label() + "), holds";
    }
    return switch (j.cause()) {
      case NO_DATAPATH -> dir + ": " + NO_DATAPATH_WORDS;
      case RATE_UNKNOWN -> dir + " rate unknown: the tunnel counters have not been read yet, so nothing is judged";
      case IDLE -> dir + " idle (" + rate + ")";
      case ROOM -> dir + " at " + rate + ", " + pct(j.utilization()) + " of its " + gbpsText(c.bytesPerSecond())
          + " ceiling";
      case LINK_FULL -> dir + " is link-bound: underlay " + d.side() + " at " + pct(o.underlayUtilization(d))
          + lineRateText(o) + ", tunnel carrying " + rate;
      case CORES_SATURATED -> dir + " is CPU-bound at " + rate + ": " + cpuText(jm);
      case CPU_SHARED -> dir + " at " + rate + " has no room: the CPU both directions share is full ("
          + cpuText(jm) + ") with " + d.other().label() + " at " + gbpsText(o.throughput(d.other()))
          + "; more " + dir + " takes CPU from " + d.other().label();
      case AT_CEILING -> dir + " holds " + pct(j.utilization()) + " of its " + gbpsText(c.bytesPerSecond()) + " "
          + c.source().label() + " ceiling at " + rate + " with " + cpuText(jm) + ": " + spreadText(jm, d);
      case FLOW_CAP -> dir + " is held by one tunnel at the underlay's single-flow cap: the busiest tunnel carries "
          + gbpsText(o.hottestTunnel(d)) + " of a " + gbpsText(o.flowCapBytesPerSecond()) + " cap";
      case ONE_TUNNEL_CORE -> dir + " is held by one tunnel: the busiest core is " + pct(o.hottestBusy())
          + " busy while the others average " + pct(o.meanBusyOfOthers())
          + (Double.isNaN(o.hottestTunnel(d)) ? "" : "; the busiest tunnel carries "
              + pct(Math.min(1, o.hottestTunnel(d) / o.throughput(d))) + " of " + dir)
          + "; the peer is at " + pct(j.utilization()) + " of its " + gbpsText(c.bytesPerSecond()) + " ceiling";
      case RELAY_HELD -> dir + " is held by one tunnel on NetBird's relay: it carries "
          + pct(Math.min(1, o.hottestTunnel(d) / o.throughput(d))) + " of " + dir + ", flat at " + gbpsText(o.hottestTunnel(d))
          + ", while the peer is at " + pct(j.utilization()) + " of its " + gbpsText(c.bytesPerSecond()) + " ceiling";
    };
  }

  /**
   * How much more of a direction the peer can carry now, and what holds it: "room for 2.1 Gbps more download now
   * (the CPU both directions share, 58% in use)".
   */
  public static String spare(Judgement jm, Direction d) {
    SpareCapacity.Spare s = jm.of(d).spare();
    String dir = d.label();
    if (s.bound() == SpareCapacity.Bound.UNKNOWN || Double.isNaN(s.bytesPerSecond())) {
      return "spare " + dir + " unknown";
    }
    String held = switch (s.bound()) {
      case CPU -> "the CPU both directions share, " + pct(Math.min(1, s.load())) + " in use";
      case CEILING -> "its own " + gbpsText(jm.of(d).ceiling().bytesPerSecond()) + " ceiling";
      case UNDERLAY -> "the underlay's free line rate";
      case UNKNOWN -> "unknown";
    };
    // Below a hundredth of a Gbps the two-decimal figure would read 0 anyway: say it plainly.
    return Units.gbps(s.bytesPerSecond()) < 0.005 ? "no room for more " + dir + " now (" + held + ")"
        : "room for " + gbpsText(s.bytesPerSecond()) + " more " + dir + " now (" + held + ")";
  }

  /**
   * Where a ceiling's figure came from, with the profile set aside if one was: "reference: kernel WireGuard,
   * 16 cores, MTU 1280, capped by 10 Gbps NIC".
   */
  /** What the {@code no_datapath} verdict means, said once for every surface (reason, check, the words). */
  public static final String NO_DATAPATH_WORDS = "no tunnel datapath (no tunnel interface, and NetBird not"
      + " answering as connected in netstack mode): nothing is measured, so no room is claimed";

  public static String basis(Ceiling c) {
    String text;
    if (c.basis() instanceof Ceiling.Reference r) {
      text = "reference: " + (r.datapath() == Datapath.NETSTACK ? "NetBird netstack, assumed "
          + num(ReferenceProfile.NETSTACK_SHARE_OF_USERSPACE, 2) + " x userspace WireGuard (not measured)"
          : r.datapath().userspace() ? "userspace WireGuard (wireguard-go)" : "kernel WireGuard")
          + (r.datapath() == Datapath.ABSENT ? " assumed (no tunnel datapath seen)" : "") + ", "
          + tableCoresText(ReferenceProfile.coreRows(r.datapath()), r.cores()) + ", MTU " + r.tunnelMtu()
          + (r.jumboFactor() == 1.0 ? "" : " (jumbo x" + num(r.jumboFactor(), 2)
              + (r.tunnelMtu() < ReferenceProfile.JUMBO_MTU ? ", interpolated between MTU " + ReferenceProfile.BASE_MTU
                  + " and " + ReferenceProfile.JUMBO_MTU : "") + ")")
          + (r.cappedBy().isPresent() ? ", capped by " + num(Units.gbps(r.cappedBy().getAsDouble()), 2) + " Gbps NIC" : "");
    } else if (c.basis() instanceof Ceiling.Profile p) {
      MeasuredProfile m = p.profile();
      text = "profile: measured " + gbpsText(c.bytesPerSecond()) + " on this peer, " + m.datapath().label()
          + " datapath, " + m.cores() + " cores, MTU " + m.tunnelMtu() + ", limited by "
          + ProfileFile.limitLabel(m.limit(p.direction())) + m.when().map(t -> ", at " + t).orElse("");
    } else if (c.basis() instanceof Ceiling.Config k) {
      text = "config: ceiling." + k.direction().label() + " = " + gbpsText(c.bytesPerSecond());
    } else if (c.basis() instanceof Ceiling.Cost k) {
      text = costText(c, k);
    } else {
      ObservedCeiling o = ((Ceiling.Observed) c.basis()).seen();
      text = "observed: " + gbpsText(o.bytesPerSecond()) + " sustained for " + Units.durationText(o.episodeSeconds())
          + (o.from() == ObservedCeiling.From.CPU_SATURATED ? " with the CPU saturated"
              : " above the ceiling it was read against") + ", learned " + o.learnedAt().truncatedTo(ChronoUnit.SECONDS);
    }
    if (c.source() == CeilingSource.REFERENCE && c.cost() != CostModel.Estimate.NONE) {
      text += "; " + costPendingText(c.cost());
    }
    return text + c.skipped().map(k -> " (" + skippedText(k) + ")").orElse("");
  }

  /**
   * A cost ceiling's basis: "cost: 21.4 µs of CPU per download packet (1,240 bytes), over 1 core (0.02 idle), learned
   * at 0.24 Gbps download, 0.01 Gbps upload over 3m 10s of load; fit ±9 %; directions not told apart: upload at
   * the reference's 0.88 x".
   */
  private static String costText(Ceiling c, Ceiling.Cost k) {
    CostModel.Estimate e = c.cost();
    Direction d = k.direction();
    double perPacket = e.cost(d) * PacketSize.units(k.datapath(), d, c.packetBytes());
    return "cost: " + num(perPacket * 1e6, 2) + " µs of CPU per " + d.label() + " packet ("
        + String.format(Locale.ROOT, "%,.0f", c.packetBytes()) + " bytes), over " + num(k.cores(), 2)
        + (k.cores() == 1 ? " core" : " cores") + " (" + num(e.fixedCores(), 2) + " at idle), learned at "
        + gbpsText(e.meanRate().getOrDefault(Direction.DOWNLOAD, 0.0)) + " download and "
        + gbpsText(e.meanRate().getOrDefault(Direction.UPLOAD, 0.0)) + " upload over "
        + Units.durationText(e.seconds()) + " of load; cost ±" + pct(e.fitError())
        + (e.apart() ? "; decrypt costs " + num(e.ratio(), 2) + " x encrypt"
            : "; directions not told apart: decrypt at the reference's " + num(e.referenceRatio(), 2) + " x encrypt")
        + (c.linkCapped() ? "; capped by the NIC's line rate" : "");
  }

  /** Why the cost model gives no ceiling yet. */
  private static String costPendingText(CostModel.Estimate e) {
    return switch (e.shortfall()) {
      case NONE -> "cost learned, not used";
      case NO_CPU -> "no cost ceiling: the datapath's CPU is not measured";
      case LEARNING -> "cost ceiling after " + Units.durationText(e.neededSeconds()) + " of load (so far "
          + Units.durationText(e.seconds()) + ")";
      case SCATTERED -> "no cost ceiling yet: the CPU scatters too far for its cost to be known (±"
          + pct(e.fitError()) + ", at most ±" + pct(CostModel.MAX_FIT_ERROR) + ")";
    };
  }

  private static String skippedText(Ceiling.Skipped k) {
    MeasuredProfile p = k.profile();
    return switch (k.why()) {
      case CORES -> "profile measured at " + p.cores() + " cores, now " + k.now().onlineCores();
      case DATAPATH -> "profile measured with " + p.datapath().label() + " datapath, now " + k.now().datapath().label();
      case MTU -> "profile measured at MTU " + p.tunnelMtu() + ", now " + k.now().tunnelMtu();
      case ONE_TUNNEL -> "profile measured one tunnel's limit, not the peer's";
      case NOT_MEASURED -> "profile has no " + k.direction().label() + " measurement";
    };
  }

  /** The cores a reference figure was read at, and how the table's rows gave it. */
  private static String tableCoresText(double[] rows, double cores) {
    if (cores <= 0) {
      return "cores unknown (1-core row)";
    }
    String c = num(cores, 2) + (cores == 1 ? " core" : " cores");
    for (int i = 1; i < rows.length; i++) {
      if (cores > rows[i - 1] && cores < rows[i]) {
        return c + " (interpolated between " + (int) rows[i - 1] + " and " + (int) rows[i] + ")";
      }
    }
    int top = (int) rows[rows.length - 1];
    return cores > top ? c + " (table ends at " + top + ")" : c;
  }

  /** Why the datapath cannot use the idle cores, from the reference tables. */
  private static String spreadText(Judgement jm, Direction d) {
    Observation o = jm.observation();
    int cores = coresForTable(jm);
    if (o.datapath().userspace()) {
      return "userspace WireGuard keeps only ~" + num(jm.usableCores(), 1) + " cores busy and plateaus near "
          + num(ReferenceProfile.plateauGbps(o.datapath(), d), 1) + " Gbps " + d.label() + " whatever the core count";
    }
    int knee = ReferenceProfile.KNEE_CORES;
    if (cores < knee) {
      return "the reference for " + cores + " cores is " + num(ReferenceProfile.tableGbps(o.datapath(), cores, d), 1)
          + " Gbps " + d.label() + "; it grows to " + num(ReferenceProfile.tableGbps(o.datapath(), knee, d), 1)
          + " Gbps at " + knee + " cores";
    }
    return kneeText(d);
  }

  private static String kneeText(Direction d) {
    int knee = ReferenceProfile.KNEE_CORES;
    double atKnee = ReferenceProfile.tableGbps(Datapath.KERNEL, knee, d);
    double atTop = ReferenceProfile.tableGbps(Datapath.KERNEL, ReferenceProfile.TABLE_TOP_CORES, d);
    return d == Direction.UPLOAD
        ? "decryption does not spread further: kernel upload flattens at ~" + num(atKnee, 1) + " Gbps from " + knee
            + " cores (" + num(atTop, 1) + " Gbps at " + ReferenceProfile.TABLE_TOP_CORES + ")"
        : "past " + knee + " cores download gains little (reference " + num(atKnee, 1) + " Gbps at " + knee + ", "
            + num(atTop, 1) + " Gbps at " + ReferenceProfile.TABLE_TOP_CORES + ")";
  }

  /** One piece of advice, in a sentence with numbers. */
  public static String advice(Judgement jm, AdviceItem a) {
    Observation o = jm.observation();
    int cores = coresForTable(jm);
    // Without a direction, advice on a per-direction ground came from both (the classifier merged them).
    String who = a.about().map(d -> d.label() + " ")
        .orElse(PEER_WIDE.contains(a.ground()) ? "" : "download and upload ");
    Direction d = a.about().orElse(Direction.DOWNLOAD);
    String line = o.lineRate().isPresent() ? gbpsText(o.lineRate().getAsDouble()) : "its line rate";
    return switch (a.ground()) {
      case NO_DATAPATH -> "nothing to judge: no tunnel datapath; the verdict returns once a tunnel carries traffic";
      case ROOM -> "nothing to do: download at " + pct(jm.of(Direction.DOWNLOAD).utilization()) + " and upload at "
          + pct(jm.of(Direction.UPLOAD).utilization()) + " of their ceilings";
      case ONE_TUNNEL -> "nothing to do for the peer: one tunnel is at its own limit; neither more cores nor more"
          + " peers raise one tunnel's rate";
      case BELOW_KNEE -> who + "is CPU-bound on " + coresText(jm) + "; the reference grows to "
          + num(ReferenceProfile.tableGbps(o.datapath(), ReferenceProfile.KNEE_CORES, d), 1) + " Gbps " + d.label()
          + " at " + ReferenceProfile.KNEE_CORES + " cores: add cores, up to " + ReferenceProfile.KNEE_CORES
          + thisCpuText(jm, a, "; ", o.datapath(), nextSize(jm), "");
      case PAST_KNEE -> who + "is CPU-bound on " + coresText(jm) + " and " + kneeText(d)
          + ": add a routing peer in its own Network"
          + thisCpuText(jm, a, "; one more peer of ", o.datapath(), cores, " adds");
      case USERSPACE_BELOW_KNEE -> who + "is CPU-bound on " + coresText(jm) + "; userspace WireGuard still gains up to "
          + ReferenceProfile.USERSPACE_KNEE_CORES + " cores (reference "
          + num(ReferenceProfile.tableGbps(Datapath.USERSPACE, ReferenceProfile.USERSPACE_KNEE_CORES, d), 1)
          + " Gbps " + d.label() + ")" + thisCpuText(jm, a, "; ", o.datapath(), nextSize(jm), "");
      case USERSPACE_BOUND -> a.advice() == Advice.SCALE_OUT
          ? "then, if kernel WireGuard is not an option or fills up too, add a routing peer in its own Network: "
              + "userspace WireGuard does not grow with cores"
          : who + "is bound in userspace WireGuard at " + gbpsText(o.throughput(d)) + ": wireguard-go keeps only ~"
              + num(jm.usableCores(), 1) + " cores busy (reference plateau ~"
              + num(ReferenceProfile.plateauGbps(o.datapath(), d), 1) + " Gbps " + d.label() + "); kernel WireGuard gives "
              + num(ReferenceProfile.tableGbps(Datapath.KERNEL, cores, d), 1) + " Gbps on " + cores + " cores"
              + thisCpuText(jm, a, "; ", Datapath.KERNEL, cores, "");
      case USERSPACE_NEAR_PLATEAU -> "the userspace datapath is near its plateau (download "
          + gbpsText(o.throughput(Direction.DOWNLOAD)) + ", upload " + gbpsText(o.throughput(Direction.UPLOAD))
          + "; userspace WireGuard tops out near " + num(ReferenceProfile.plateauGbps(o.datapath(), Direction.DOWNLOAD), 1)
          + " Gbps download); kernel WireGuard gives "
          + num(ReferenceProfile.tableGbps(Datapath.KERNEL, cores, Direction.DOWNLOAD), 1) + " Gbps download on "
          + cores + " cores";
      case LARGEST_NIC -> who + "fills a " + line + " NIC, and there is no bigger one to have: add a routing peer in"
          + " its own Network";
      case LINK_AND_CPU_FULL -> who + "fills the " + line + " NIC and the CPU is saturated too (" + cpuText(jm)
          + "): a bigger NIC alone would not help; add a routing peer";
      case LINK_FULL_CPU_ROOM -> who + (a.about().isPresent() ? "fills" : "fill") + " the " + line + " NIC while the CPU has room (" + cpuText(jm)
          + "); the reference says " + cores + " cores need a " + num(ReferenceProfile.interfaceGbps(cores), 1)
          + " Gbps interface";
      case JUMBO_PATH -> "the path carries jumbo frames (underlay MTU " + o.underlayMtu() + ") but the tunnel runs at "
          + o.tunnelMtu() + ": on " + ReferenceProfile.TABLE_TOP_CORES + " cores kernel WireGuard carries x"
          + num(ReferenceProfile.jumboFactor(Datapath.KERNEL, ReferenceProfile.JUMBO_MTU, Direction.DOWNLOAD), 1)
          + " download and x"
          + num(ReferenceProfile.jumboFactor(Datapath.KERNEL, ReferenceProfile.JUMBO_MTU, Direction.UPLOAD), 1)
          + " upload at tunnel MTU " + ReferenceProfile.JUMBO_MTU + "; set the larger MTU on every client and peer"
          + " of the Network";
      case RELAYED_TUNNEL -> who + "is held by one client on NetBird's relay at " + gbpsText(o.hottestTunnel(d))
          + ", not by the peer: more cores or peers will not raise it; let that client reach the peer directly"
          + " (UDP to the peer's WireGuard port, NAT, firewall)";
    };
  }

  /**
   * This CPU against the reference box and the evidence behind it: "this CPU: 0.94x the reference (download), 0.9x
   * (upload), from 3m00s of load (cost ±4%)"; empty while the cost is not learned.
   */
  public static String thisCpu(ThisCpu t) {
    if (t.rows().isEmpty()) {
      return "";
    }
    CostModel.Estimate e = t.evidence();
    return "this CPU: " + num(t.speed().download(), 2) + "x the reference (download), " + num(t.speed().upload(), 2)
        + "x (upload), from " + Units.durationText(e.seconds()) + " of load (cost ±" + pct(e.fitError())
        + (e.apart() ? "" : "; directions not told apart: upload at the reference's ratio") + ")";
  }

  /** What the size table shows, said once for the page and {@code check}. */
  public static final String SIZES_WORDS = "What a peer of this CPU carries at the guide's sizes, in Gbps: this CPU's"
      + " cost per packet, spread over cores as the reference's was, at the packets each direction carries now";

  /** The size table's headings: vCPUs, then each datapath's download and upload, in the order of the rows. */
  public static List<String> sizeHeadings(ThisCpu t) {
    List<String> h = new java.util.ArrayList<>(List.of("vCPUs"));
    t.rows().stream().map(ThisCpu.Size::datapath).distinct()
        .forEach(dp -> Arrays.stream(Direction.values()).forEach(d -> h.add(dp.label() + " " + d.label())));
    return h;
  }

  /** The size table's rows under {@link #sizeHeadings}: one per guide size. */
  public static List<List<String>> sizeCells(ThisCpu t) {
    List<List<String>> rows = new java.util.ArrayList<>();
    for (int cores : ThisCpu.GUIDE_SIZES) {
      List<String> r = new java.util.ArrayList<>(List.of(Integer.toString(cores)));
      t.rows().stream().filter(s -> s.cores() == cores)
          .forEach(s -> Arrays.stream(Direction.values()).forEach(d -> r.add(sizeGbps(s, d))));
      if (r.size() > 1) {
        rows.add(r);
      }
    }
    return rows;
  }

  /**
   * What a peer of {@code cores} vCPUs of this CPU carries on {@code target}, from the cost this peer learned
   * ({@link ThisCpu}): "; 8 vCPUs of this CPU: about 9.1 Gbps download", after {@code lead} and before
   * {@code verb}; for advice about both directions, both. Empty while the cost is not learned, so the advice reads
   * as the reference alone gives it.
   */
  private static String thisCpuText(Judgement jm, AdviceItem a, String lead, Datapath target, int cores, String verb) {
    ThisCpu.Size s = ThisCpu.at(jm.of(Direction.DOWNLOAD).ceiling().cost(), jm.observation(), target, cores);
    if (s == null) {
      return "";
    }
    StringBuilder t = new StringBuilder(lead).append(cores).append(cores == 1 ? " vCPU" : " vCPUs")
        .append(" of this CPU").append(target == jm.observation().datapath() ? "" : " with kernel WireGuard")
        .append(verb).append(verb.isEmpty() ? ": about " : " about ");
    List<Direction> dirs = a.about().map(List::of).orElse(List.of(Direction.values()));
    for (Direction d : dirs) {
      t.append(d == dirs.get(0) ? "" : " and ").append(num(Units.gbps(s.bytesPerSecond().get(d)), 1)).append(" Gbps ")
          .append(d.label()).append(s.linkCapped().get(d) ? " (held by this peer's NIC)" : "");
    }
    return t.toString();
  }

  /** A size's figure in a direction, Gbps to one decimal, with a mark when the NIC's line rate holds it. */
  static String sizeGbps(ThisCpu.Size s, Direction d) {
    return num(Units.gbps(s.bytesPerSecond().get(d)), 1) + (s.linkCapped().get(d) ? LINK_CAPPED_MARK : "");
  }

  /** Marks a size's figure held by this peer's NIC rather than its CPU; {@link #LINK_CAPPED_WORDS} says so. */
  public static final String LINK_CAPPED_MARK = "*";
  /** What {@link #LINK_CAPPED_MARK} means. */
  public static final String LINK_CAPPED_WORDS = LINK_CAPPED_MARK + " held by this peer's NIC line rate, not the CPU";

  /** The next of the guide's sizes above this peer's cores (the largest when there is none). */
  private static int nextSize(Judgement jm) {
    double peer = Classifier.peerCores(jm.observation());
    return Arrays.stream(ThisCpu.GUIDE_SIZES).filter(c -> c > peer).findFirst()
        .orElse(ThisCpu.GUIDE_SIZES[ThisCpu.GUIDE_SIZES.length - 1]);
  }

  /** Cores to read the tables at: the peer's, rounded up under a quota. */
  private static int coresForTable(Judgement jm) {
    return Math.max(1, (int) Math.ceil(Classifier.peerCores(jm.observation())));
  }

  private static String coresText(Judgement jm) {
    Observation o = jm.observation();
    double peer = Classifier.peerCores(o);
    return num(peer, 2) + " cores" + (peer < o.onlineCores() ? " (CPU quota of " + o.onlineCores() + " online)" : "");
  }


  private static String lineRateText(Observation o) {
    return o.lineRate().isPresent() ? " of the " + gbpsText(o.lineRate().getAsDouble()) + " line rate" : " of its line rate";
  }

  private static String cpuText(Judgement jm) {
    Observation o = jm.observation();
    double peer = Classifier.peerCores(o);
    String cores = num(o.totalBusyCores(), 1) + " of " + coresText(jm) + " busy";
    if (o.datapath().userspace() && !Double.isNaN(o.datapathCpuCores())) {
      return "the userspace datapath uses " + num(o.datapathCpuCores(), 1) + " of the ~" + num(jm.usableCores(), 1)
          + " cores it can use (" + cores + ")";
    }
    return Double.isNaN(peer) ? "CPU unknown" : cores;
  }
}
