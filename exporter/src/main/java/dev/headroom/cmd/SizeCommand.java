package dev.headroom.cmd;

import static dev.headroom.judge.Units.num;

import dev.headroom.config.ConfigException;
import dev.headroom.config.Flags;
import dev.headroom.config.Quantities;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.ProfileFile;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.Sizing;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.serve.Explainer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code headroom size}: the four-step sizing method as a calculator. Peak demand = active users x per-user rate;
 * active peers = ceil(peak / one peer's capacity in the direction users use); each active peer gets its own
 * Network exposing the same resources, with {@code --peers-per-network} (default 2) routing peers for failover.
 *
 * <p>With {@code --from-prometheus URL} the active users and the per-user rate come from what the tunnel census
 * observed (the peak of simultaneously active tunnels and the mean rate per active tunnel over {@code --window},
 * optionally for one {@code --network}); an explicit {@code --active-users} or {@code --per-user-mbps} still wins.
 *
 * <p>Usage: {@code headroom size --active-users 3000 --per-user-mbps 10 --direction download --vcpus 16}, or
 * {@code headroom size --from-prometheus http://prom:9090 --network net-a --window 7d --vcpus 16}
 *
 * <p>Exit codes: 0 sized; 1 the profile file could not be used, or Prometheus could not give the observed values;
 * 2 bad flags.
 */
public final class SizeCommand {
  private SizeCommand() {}

  /** The synopsis: which flags go together, which picocli's generated one cannot say. */
  private static final String[] SYNOPSIS = {
      "headroom size (--active-users N --per-user-mbps X",
      "                     | --from-prometheus URL [--network NAME] [--window 7d])",
      "                     [--direction download|upload]",
      "                     (--vcpus N [--datapath kernel|userspace]",
      "                      | --capacity-gbps X | --profile-file PATH",
      "                      | --capacity-source observed)",
      "                     [--line-rate 10gbit] [--mtu N] [--peers-per-network N]"};

  /** Every flag with its value's name and help; the order is the help's. */
  private static final String[][] FLAGS = {
      {"--active-users", "N", "users active at the busiest time (not enrolled users)"},
      {"--per-user-mbps", "X", "what one active user pulls (download) or pushes (upload), in Mbps"},
      {"--from-prometheus", "URL", "take what is not given above from the tunnel census in this Prometheus (base URL,"
          + " e.g. http://prometheus:9090): the peak of simultaneously active tunnels and the mean rate per active"
          + " tunnel in the chosen direction"},
      {"--network", "NAME", "with --from-prometheus: only peers whose --labels.network is NAME (default: all peers in"
          + " that Prometheus together)"},
      {"--window", "D", "with --from-prometheus: how far back to look, a Prometheus duration (default "
          + "7d; e.g. 2h, 30d, 1w)"},
      {"--direction", "D", "download (users pull, the peer encrypts; default) or upload (the peer decrypts)"},
      {"--vcpus", "N", "size from the built-in reference table for a peer of N vCPUs"},
      {"--datapath", "D", "with --vcpus: kernel (default) or userspace (wireguard-go)"},
      {"--capacity-gbps", "X", "one peer's capacity in that direction, in Gbps, as you measured it"},
      {"--profile-file", "PATH", "one peer's capacity from a file written by `headroom profile`"},
      {"--capacity-source", "S", "with --from-prometheus: 'observed' takes one peer's capacity from the ceilings"
          + " the peers learned from their own saturation (headroom_ceiling_source observed), the lowest of them"},
      {"--line-rate", "R", "the peer's NIC (e.g. 1gbit, 10gbit): capacity is the smaller of CPU and NIC"},
      {"--mtu", "N", "tunnel MTU (default 1280; the reference scales for jumbo, the NIC carries more)"},
      {"--peers-per-network", "N", "routing peers per Network for failover (default 2)"}};

  /** Default --window: a week sees every weekday's peak. */
  static final String DEFAULT_WINDOW = "7d";


  /** Bad flags: printed with the usage, exit code 2. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  /** The {@code size} command's flags, for the command line ({@link CommandLines}) and {@link #run(String[], PrintStream, PrintStream)}. */
  static CommandSpec spec() {
    CommandSpec spec = Flags.command("size", "The four-step sizing method: how many routing peers and Networks"
        + " carry the peak, from users and their rate (given, or observed by the census in Prometheus) and one"
        + " peer's capacity (reference table, as measured, or a profile file).");
    spec.usageMessage().customSynopsis(String.join("%n", SYNOPSIS) + "%n");
    for (String[] f : FLAGS) {
      Flags.option(spec, f[0], f[1], f[2]);
    }
    return spec;
  }

  /** Runs the calculator on the arguments after {@code size}; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine cl = Flags.commandLine(spec(), false);
    cl.setOut(new PrintWriter(out, true));
    ParseResult pr;
    try {
      pr = cl.parseArgs(args);
    } catch (ParameterException e) {
      return usageError(Flags.message(e), cl, err);
    }
    Integer helped = CommandLine.executeHelpRequest(pr);
    return helped != null ? helped : run(pr, out, err);
  }

  /** Runs the calculator on parsed flags; returns the exit code. */
  static int run(ParseResult pr, PrintStream out, PrintStream err) {
    try {
      return size(Flags.values(pr), out, err);
    } catch (UsageException e) {
      return usageError(e.getMessage(), pr.commandSpec().commandLine(), err);
    }
  }

  private static int usageError(String message, CommandLine cl, PrintStream err) {
    err.println("headroom size: " + message);
    cl.usage(err);
    return 2;
  }

  private static int size(Map<String, String> f, PrintStream out, PrintStream err) throws UsageException {
    boolean observe = f.containsKey("--from-prometheus");
    URI prometheus = null;
    String window = null;
    String network = null;
    if (observe) {
      try {
        prometheus = PrometheusQuery.baseUri(f.get("--from-prometheus"));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--from-prometheus " + e.getMessage());
      }
      window = window(f.getOrDefault("--window", DEFAULT_WINDOW));
      if (f.containsKey("--network")) {
        network = f.get("--network").trim();
        if (network.isEmpty()) {
          throw new UsageException("--network needs a name");
        }
      }
    } else if (f.containsKey("--network") || f.containsKey("--window")) {
      throw new UsageException((f.containsKey("--network") ? "--network" : "--window")
          + " only applies with --from-prometheus");
    }
    boolean usersGiven = !observe || f.containsKey("--active-users");
    boolean rateGiven = !observe || f.containsKey("--per-user-mbps");
    long users = usersGiven ? wholeNumber(f, "--active-users", 0, true) : -1;
    double perUserMbps = rateGiven ? positiveNumber(f, "--per-user-mbps", true) : Double.NaN;
    Direction direction = direction(f.getOrDefault("--direction", "download"));
    long perNetwork = f.containsKey("--peers-per-network") ? wholeNumber(f, "--peers-per-network", 1, false) : 2;

    int sources = (f.containsKey("--vcpus") ? 1 : 0) + (f.containsKey("--capacity-gbps") ? 1 : 0)
        + (f.containsKey("--profile-file") ? 1 : 0) + (f.containsKey("--capacity-source") ? 1 : 0);
    if (sources != 1) {
      throw new UsageException("give exactly one of --vcpus, --capacity-gbps, --profile-file, --capacity-source"
          + (sources == 0 ? " (where one peer's capacity comes from)" : ""));
    }
    boolean observedCapacity = f.containsKey("--capacity-source");
    if (observedCapacity && !f.get("--capacity-source").trim().equals("observed")) {
      throw new UsageException("--capacity-source can only be 'observed', got '" + f.get("--capacity-source") + "'");
    }
    if (observedCapacity && !observe) {
      throw new UsageException("--capacity-source observed reads the peers' ceilings: it needs --from-prometheus");
    }
    if (f.containsKey("--datapath") && !f.containsKey("--vcpus")) {
      throw new UsageException("--datapath only applies with --vcpus");
    }

    double capacityGbps;
    String capacityBasis;
    Datapath datapath = Datapath.KERNEL;
    int vcpus = 0;
    if (f.containsKey("--vcpus")) {
      vcpus = (int) wholeNumber(f, "--vcpus", 1, false);
      datapath = datapath(f.getOrDefault("--datapath", "kernel"));
      capacityGbps = ReferenceProfile.tableGbps(datapath, vcpus, direction);
      capacityBasis = Explainer.basis(ReferenceProfile.ceiling(datapath, vcpus, ReferenceProfile.BASE_MTU,
          OptionalDouble.empty(), direction)) + "; expect about ±20 %";
    } else if (f.containsKey("--capacity-gbps")) {
      capacityGbps = positiveNumber(f, "--capacity-gbps", true);
      capacityBasis = "as given";
    } else if (observedCapacity) {
      capacityGbps = Double.NaN; // read from Prometheus below
      capacityBasis = "";
    } else {
      Path path = Path.of(f.get("--profile-file"));
      MeasuredProfile p;
      try {
        p = ProfileFile.read(path);
      } catch (IOException e) {
        err.println("headroom size: cannot use the profile file: " + e.getMessage());
        return 1;
      }
      OptionalDouble c = p.ceiling(direction);
      if (c.isEmpty()) {
        err.println("headroom size: profile file " + path + " has no " + direction.label()
            + " measurement; run `headroom profile` with " + direction.label() + " load, or give --capacity-gbps");
        return 1;
      }
      capacityGbps = Units.gbps(c.getAsDouble());
      capacityBasis = "measured: " + p.datapath().label() + " datapath, " + p.cores() + " cores, MTU "
          + p.tunnelMtu() + ", limited by " + p.limit(direction).label();
      datapath = p.datapath();
      vcpus = p.cores();
    }

    if (observe) {
      PrometheusQuery prom = new PrometheusQuery(prometheus);
      List<String> lines = new ArrayList<>();
      lines.add("Observed in Prometheus " + prometheus + ", " + (network == null ? "all peers" : "network " + network)
          + ", over the last " + window + ":");
      String where = (network == null ? "" : " for network " + network) + " in the last " + window;
      String noData = "no census data" + where + ": is the census running? see headroom_source_up{source=\"census\"}"
          + (network == null ? "" : "; and does a peer of that Network run with --labels.network=" + network + "?");
      try {
        if (usersGiven) {
          lines.add("  active users: " + String.format(Locale.ROOT, "%,d", users) + ", as given (--active-users)");
        } else {
          OptionalDouble peak = prom.single(peakUsersQuery(network, window));
          if (peak.isEmpty() || !Double.isFinite(peak.getAsDouble())) {
            err.println("headroom size: " + noData);
            return 1;
          }
          users = Math.max(0, Math.round(peak.getAsDouble()));
          lines.add("  peak active users: " + String.format(Locale.ROOT, "%,d", users)
              + " (highest 1-minute sum of headroom_tunnels{state=\"active\"})");
        }
        if (rateGiven) {
          lines.add("  per-user rate: " + num(perUserMbps, 3) + " Mbps, as given (--per-user-mbps)");
        } else {
          OptionalDouble mean = prom.single(perUserRateQuery(direction, network, window));
          if (mean.isEmpty()) {
            err.println("headroom size: " + noData);
            return 1;
          }
          double bytesPerSecond = mean.getAsDouble();
          if (!(bytesPerSecond > 0) || !Double.isFinite(bytesPerSecond)) {
            err.println("headroom size: no tunnel was active" + where + ", so no per-user " + direction.label()
                + " rate was observed (the census saw only idle tunnels); give --per-user-mbps");
            return 1;
          }
          perUserMbps = bytesPerSecond * 8 / 1e6;
          lines.add("  per-user rate: " + num(perUserMbps, 3) + " Mbps " + direction.label() + " ("
              + String.format(Locale.ROOT, "%,.0f", bytesPerSecond) + " bytes/s, mean over active tunnels:"
              + " rate(_sum) / rate(_count) of headroom_tunnel_rate_bytes_per_second)");
        }
        if (observedCapacity) {
          OptionalDouble lowest = prom.single(observedCeilingQuery(direction, network, window));
          if (lowest.isEmpty() || !(lowest.getAsDouble() > 0) || !Double.isFinite(lowest.getAsDouble())) {
            err.println("headroom size: no peer" + where + " reads its " + direction.label() + " ceiling as observed"
                + " (headroom_ceiling_source{source=\"observed\"}): none has stayed saturated for"
                + " --ceiling.learn-after yet; give --vcpus, --capacity-gbps or --profile-file");
            return 1;
          }
          capacityGbps = Units.gbps(lowest.getAsDouble());
          capacityBasis = "observed: the lowest " + direction.label() + " ceiling the peers learned from their own"
              + " saturation";
          lines.add("  one peer's capacity: " + num(capacityGbps, 2) + " Gbps " + direction.label() + " (lowest"
              + " headroom_ceiling_bytes_per_second whose headroom_ceiling_source is observed)");
        }
      } catch (PrometheusQuery.QueryException e) {
        err.println("headroom size: " + e.getMessage());
        return 1;
      }
      lines.forEach(out::println);
    }

    OptionalDouble lineRate = OptionalDouble.empty();
    if (f.containsKey("--line-rate")) {
      try {
        lineRate = OptionalDouble.of(Units.gbps(dev.headroom.config.Quantities.bitRateToBytes(f.get("--line-rate"),
            "--line-rate")));
      } catch (dev.headroom.config.ConfigException e) {
        throw new UsageException(e.getMessage());
      }
    }
    int mtu = f.containsKey("--mtu") ? (int) wholeNumber(f, "--mtu", 576, false) : ReferenceProfile.BASE_MTU;
    Sizing.Plan plan = Sizing.plan(new Sizing.Inputs(users, perUserMbps, direction, datapath, vcpus, capacityGbps,
        lineRate, mtu, perNetwork, f.containsKey("--vcpus")));
    report(plan, users, perUserMbps, direction, datapath, vcpus, perNetwork, capacityBasis, out);
    return 0;
  }

  /** Prints the plan; every figure is the plan's or the reference profile's. */
  static void report(Sizing.Plan plan, long users, double perUserMbps, Direction direction, Datapath datapath,
      int vcpus, long perNetwork, String capacityBasis, PrintStream out) {
    double peakGbps = plan.peakGbps();
    double capacityGbps = plan.capacityGbps();
    long active = plan.activePeers();
    String dir = direction.label();
    out.println("Sizing routing peers for " + dir + (direction == Direction.DOWNLOAD
        ? " (users pull; the peer encrypts)" : " (users push; the peer decrypts)"));
    out.println("1. Peak demand: " + String.format(Locale.ROOT, "%,d", users) + " active users x "
        + num(perUserMbps, 3) + " Mbps = " + num(peakGbps, 2) + " Gbps " + dir);
    String basis = capacityBasis;
    if (plan.notes().contains(Sizing.Note.INTERFACE_BOUND)) {
      basis = "its NIC carries " + num(plan.nicGbps(), 2) + " Gbps inside the tunnel, less than the CPU's "
          + num(plan.cpuGbps(), 2) + " Gbps (" + capacityBasis + ")";
    } else if (!Double.isNaN(plan.nicGbps())) {
      basis += "; its NIC carries " + num(plan.nicGbps(), 2) + " Gbps";
    }
    String range = plan.lowGbps() < plan.highGbps()
        ? ", range " + num(plan.lowGbps(), 2) + "-" + num(plan.highGbps(), 2) + " Gbps" : "";
    out.println("2. One peer carries " + num(capacityGbps, 2) + " Gbps " + dir + " (" + basis + range + ")");
    if (vcpus > 0 && !datapath.userspace()) {
      out.println("   The reference pairs " + vcpus + " vCPUs with a " + num(ReferenceProfile.interfaceGbps(vcpus), 1)
          + " Gbps interface.");
    }
    out.println("3. Active peers: ceil(" + num(peakGbps, 2) + " / " + num(capacityGbps, 2) + ") = " + active);
    if (active == 0) {
      out.println("4. No throughput to carry: 1 Network x " + perNetwork + " peers = " + perNetwork
          + " peers, for availability only (a Network keeps serving when one routing peer fails)");
    } else {
      out.println("4. " + active + (active == 1 ? " Network" : " Networks") + " x " + perNetwork + " peers = "
          + plan.peers() + " peers, ~" + num(plan.perNetworkGbps(), 2) + " Gbps per Network ("
          + Math.round(100 * plan.load()) + "% of one peer's " + num(capacityGbps, 2) + " Gbps)");
    }
    out.println("Each Network exposes the same resources; its routing peers fail over (or serve the nearest"
        + " clients), they never share load; a policy splits client groups across the Networks.");
    java.util.Set<Sizing.Note> n = plan.notes();
    if (n.contains(Sizing.Note.PAST_NEAR_CEILING)) {
      out.println("Note: each Network would run at " + Math.round(100 * plan.load()) + "% of one peer, past the "
          + Math.round(100 * Sizing.NEAR_CEILING) + "% at which HeadroomPeerNearCeiling warns; " + plan.roomyNetworks()
          + " Networks keep " + Math.round(100 * (1 - Sizing.NEAR_CEILING)) + "% headroom.");
    }
    if (n.contains(Sizing.Note.NO_FAILOVER)) {
      out.println("Note: 1 peer per Network has no failover; use 2 or more.");
    }
    if (n.contains(Sizing.Note.USER_OVER_ONE_TUNNEL)) {
      out.println("Note: one user's " + num(perUserMbps / 1000.0, 2) + " Gbps exceeds what one tunnel carries (about "
          + num(Math.min(ReferenceProfile.tableGbps(datapath, 1, direction), capacityGbps), 2) + " Gbps here). One"
          + " user is one tunnel, handled mostly on one core; no number of Networks raises that.");
    }
    if (n.contains(Sizing.Note.BEYOND_LARGEST_PEER)) {
      out.println("Note: no single peer carries " + num(peakGbps, 2) + " Gbps " + dir + " (the largest reference peer, "
          + ReferenceProfile.TABLE_TOP_CORES + " vCPUs " + datapath.label() + ", carries "
          + num(ReferenceProfile.tableGbps(datapath, ReferenceProfile.TABLE_TOP_CORES, direction), 2)
          + " Gbps): scaling out is the only way.");
    }
    int knee = ReferenceProfile.KNEE_CORES;
    if (n.contains(Sizing.Note.UPLOAD_FLATTENS)) {
      out.println("Note: upload (decryption) flattens at ~" + num(ReferenceProfile.tableGbps(Datapath.KERNEL, knee,
          Direction.UPLOAD), 1) + " Gbps from " + knee + " vCPUs; past " + knee + " vCPUs add peers, not cores.");
    }
    if (n.contains(Sizing.Note.DOWNLOAD_PAST_KNEE)) {
      out.println("Note: past " + knee + " vCPUs download gains little ("
          + num(ReferenceProfile.tableGbps(Datapath.KERNEL, knee, Direction.DOWNLOAD), 1) + " Gbps at " + knee + ", "
          + num(ReferenceProfile.tableGbps(Datapath.KERNEL, ReferenceProfile.TABLE_TOP_CORES, Direction.DOWNLOAD), 1)
          + " Gbps at " + ReferenceProfile.TABLE_TOP_CORES + "); " + knee
          + "-vCPU peers in more Networks usually cost less.");
    }
    if (n.contains(Sizing.Note.USERSPACE_PLATEAU)) {
      out.println("Note: userspace WireGuard plateaus near "
          + num(ReferenceProfile.userspacePlateauGbps(Direction.DOWNLOAD), 1) + " Gbps download and "
          + num(ReferenceProfile.tableGbps(Datapath.USERSPACE, 8, Direction.UPLOAD), 1) + "-"
          + num(ReferenceProfile.userspacePlateauGbps(Direction.UPLOAD), 1) + " Gbps upload from "
          + ReferenceProfile.USERSPACE_KNEE_CORES + " vCPUs; kernel WireGuard carries several times more on the same peer.");
    }
    if (n.contains(Sizing.Note.INTERFACE_BOUND)) {
      out.println("Note: the NIC, not the CPU, sets this peer's capacity, so download and upload both meet it; a"
          + " faster interface raises it up to the CPU's " + num(plan.cpuGbps(), 2) + " Gbps.");
    }
    if (n.contains(Sizing.Note.PREFER_LARGER_PEERS)) {
      out.println("Note: " + active + " peers of " + vcpus + " vCPUs; " + plan.sixteenCorePeers() + " of " + knee
          + " vCPUs would carry the same: 16-32 vCPU peers usually need far fewer boxes.");
    }
    out.println("Confirm one peer's capacity on your hardware with `headroom profile` and size again with"
        + " --profile-file.");
  }

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
   * latest ceiling source was {@code observed}. The lowest, so the plan holds on the weakest peer.
   */
  static String observedCeilingQuery(Direction direction, String network, String window) {
    String d = "direction=\"" + direction.label() + "\"";
    String q = "last_over_time(headroom_ceiling_bytes_per_second{" + d + "}[" + window + "])"
        + " and on (job, instance, direction) (last_over_time(headroom_ceiling_source{" + d
        + ",source=\"observed\"}[" + window + "]) == 1)";
    if (network != null) {
      q += " and on (job, instance) last_over_time(headroom_peer_info{network=" + promString(network) + "}["
          + window + "])";
    }
    return "min(" + q + ")";
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
    String r = "rate(headroom_tunnel_rate_bytes_per_second_" + part + "{direction=\"" + direction.label() + "\"}["
        + window + "])";
    if (network != null) {
      r += " and on (job, instance) last_over_time(headroom_peer_info{network=" + promString(network) + "}["
          + window + "])";
    }
    return "sum(" + r + ")";
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

  /** Checks a Prometheus duration (2h, 7d, 1w, 1h30m) of at least the 1-minute step of the peak subquery. */
  static String window(String v) throws UsageException {
    String t = v.trim();
    long ms;
    try {
      ms = Quantities.durationOrZero(t, "--window").toMillis();
    } catch (ConfigException e) {
      throw new UsageException("--window must be a Prometheus duration such as 2h, 7d or 1w, got '" + v + "'");
    }
    if (ms < 60_000) {
      throw new UsageException("--window must be at least 1m (the peak is taken at 1-minute steps), got '" + v + "'");
    }
    return t;
  }

  private static long wholeNumber(Map<String, String> f, String name, long min, boolean required) throws UsageException {
    String v = f.get(name);
    if (v == null) {
      throw new UsageException(name + " is required");
    }
    try {
      long n = Long.parseLong(v.trim().replace("_", ""));
      if (n < min) {
        throw new UsageException(name + " must be " + (min == 0 ? "0 or more" : "at least " + min) + ", got " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a whole number, got '" + v + "'");
    }
  }

  private static double positiveNumber(Map<String, String> f, String name, boolean required) throws UsageException {
    String v = f.get(name);
    if (v == null) {
      throw new UsageException(name + " is required");
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (!(d > 0) || Double.isInfinite(d)) {
        throw new UsageException(name + " must be a positive number, got " + v);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a number, got '" + v + "'");
    }
  }

  private static Direction direction(String v) throws UsageException {
    for (Direction d : Direction.values()) {
      if (d.label().equalsIgnoreCase(v.trim())) {
        return d;
      }
    }
    throw new UsageException("--direction must be download or upload, got '" + v + "'");
  }

  private static Datapath datapath(String v) throws UsageException {
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (t.equals("kernel")) {
      return Datapath.KERNEL;
    }
    if (t.equals("userspace")) {
      return Datapath.USERSPACE;
    }
    throw new UsageException("--datapath must be kernel or userspace, got '" + v + "'");
  }
}
