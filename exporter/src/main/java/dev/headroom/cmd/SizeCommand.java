package dev.headroom.cmd;

import dev.headroom.read.PrometheusQuery;
import static dev.headroom.judge.Units.num;

import dev.headroom.config.Flags;
import dev.headroom.config.Quantities;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.ProfileFile;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.Sizing;
import dev.headroom.judge.ThisCpu;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.serve.Explainer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.MutuallyExclusiveArgsException;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code headroom size}: the four-step sizing method as a calculator. Peak demand = active users x per-user rate;
 * active peers = ceil(peak / one peer's capacity in the direction users use); each active peer gets its own
 * Network exposing the same resources, with {@code --peers-per-network} (default 2) routing peers for failover.
 *
 * <p>With {@code --from-prometheus URL} the active users and the per-user rate come from what the tunnel census
 * observed (the peak of simultaneously active tunnels and the mean rate per active tunnel over {@code --window},
 * optionally for one {@code --network}); an explicit {@code --active-users} or {@code --per-user} still wins.
 *
 * <p>Usage: {@code headroom size --active-users 3000 --per-user 10mbit --direction download --vcpus 16}, or
 * {@code headroom size --from-prometheus http://prom:9090 --network net-a --window 7d --vcpus 16}
 *
 * <p>Exit codes: 0 sized; 1 the profile file could not be used, or Prometheus could not give the observed values;
 * 2 bad flags.
 */
@Command(name = "size", mixinStandardHelpOptions = true, customSynopsis = {
    "headroom size (--active-users N --per-user RATE",
    "                     | --from-prometheus URL [--network NAME] [--window 7d])",
    "                     [--direction download|upload]",
    "                     (--vcpus N [--datapath kernel|userspace]",
    "                      | --capacity RATE | --profile.file PATH",
    "                      | --capacity-source observed)",
    "                     [--from-state DIR | --from-status URL]",
    "                     [--line-rate 10gbit] [--mtu N] [--peers-per-network N]%n"},
    description = "The four-step sizing method: how many routing peers and Networks carry the peak, from users and"
        + " their rate (given, or observed by the census in Prometheus) and one peer's capacity (reference table, as"
        + " measured, or a profile file).")
public final class SizeCommand implements Callable<Integer> {
  /** Default --window: a week sees every weekday's peak. */
  static final String DEFAULT_WINDOW = "7d";
  private static final String ONE_CAPACITY = "give exactly one of --vcpus, --capacity, --profile.file, --capacity-source";

  @Option(names = "--active-users", paramLabel = "N",
      description = "users active at the busiest time (not enrolled users)")
  Long users;
  @Option(names = "--per-user", paramLabel = "RATE",
      description = "what one active user pulls (download) or pushes (upload), e.g. 10mbit")
  OptionalDouble perUser = OptionalDouble.empty();
  @Option(names = "--from-prometheus", paramLabel = "URL",
      description = "take what is not given above from the tunnel census in this Prometheus (base URL, e.g."
          + " http://prometheus:9090): the peak of simultaneously active tunnels and the mean rate per active tunnel"
          + " in the chosen direction")
  URI prometheus;
  @Option(names = "--network", paramLabel = "NAME", description = "with --from-prometheus: only peers whose"
      + " --labels.network is NAME (default: all peers in that Prometheus together)")
  String network;
  @Option(names = "--window", paramLabel = "D", description = "with --from-prometheus: how"
      + " far back to look, a Prometheus duration (default " + DEFAULT_WINDOW + "; e.g. 2h, 30d, 1w)")
  String window;
  @Option(names = "--direction", paramLabel = "D", defaultValue = "download",
      description = "download (users pull, the peer encrypts; default) or upload (the peer decrypts)")
  Direction direction;
  @ArgGroup(exclusive = true, multiplicity = "1") Capacity capacity;
  @Option(names = "--datapath", paramLabel = "D",
      description = "with --vcpus: kernel (default) or userspace (wireguard-go)")
  Datapath datapath;
  @Option(names = "--from-state", paramLabel = "DIR", description = "with --vcpus: one peer's capacity from the"
      + " cost per packet this peer learned, read from the daemon's state directory (its --path.state, e.g."
      + " /var/lib/headroom): this CPU, spread over N vCPUs as the reference's was, instead of the reference itself")
  Path fromState;
  @Option(names = "--from-status", paramLabel = "URL", description = "with --vcpus: the same from a running"
      + " daemon's /api/v1/status (its base URL, e.g. http://peer:9586)")
  URI fromStatus;
  @Option(names = "--line-rate", paramLabel = "R",
      description = "the peer's NIC (e.g. 1gbit, 10gbit): capacity is the smaller of CPU and NIC")
  OptionalDouble lineRate = OptionalDouble.empty();
  @Option(names = "--mtu", paramLabel = "N", defaultValue = "" + ReferenceProfile.BASE_MTU,
      description = "tunnel MTU (default 1280; the reference scales for jumbo, the NIC carries more)")
  Long mtu;
  @Option(names = "--peers-per-network", paramLabel = "N", defaultValue = "2",
      description = "routing peers per Network for failover (default 2)")
  Long perNetwork;
  @Spec CommandLine.Model.CommandSpec spec;

  /** Where one peer's capacity comes from: exactly one. */
  static final class Capacity {
    @Option(names = "--vcpus", paramLabel = "N",
        description = "size from the built-in reference table for a peer of N vCPUs")
    Long vcpus;
    @Option(names = "--capacity", paramLabel = "RATE",
        description = "one peer's capacity in that direction as you measured it, e.g. 2.5gbit")
    OptionalDouble rate;
    @Option(names = "--profile.file", paramLabel = "PATH",
        description = "one peer's capacity from a file written by `headroom profile`")
    Path profileFile;
    @Option(names = "--capacity-source", paramLabel = "S",
        description = "with --from-prometheus: 'observed' takes one peer's capacity from the ceilings the peers"
            + " learned from their own saturation (headroom_ceiling_source observed), the lowest of them; 'learned'"
            + " also from the ceilings their CPU cost per packet gives (observed or cost)")
    String observed;
  }

  private final PrintStream out;
  private final PrintStream err;

  SizeCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** A parse error in the calculator's words, with the usage; exit code 2. */
  static int usageError(ParameterException e, CommandLine cl, PrintStream err) {
    String message;
    if (e instanceof MutuallyExclusiveArgsException) {
      message = ONE_CAPACITY;
    } else if (e instanceof MissingParameterException m && m.getMissing().size() > 1) {
      message = ONE_CAPACITY + " (where one peer's capacity comes from)"; // the group, not one flag's value
    } else if (e.getArgSpec() instanceof OptionSpec o && e.getCause() != null) {
      message = o.longestName() + " " + e.getCause().getMessage();
    } else {
      message = Flags.message(e); // its own words for the checks in call()
    }
    err.println("headroom size: " + message);
    cl.usage(err);
    return 2;
  }

  /** Bad flags that picocli cannot see alone: printed with the usage, exit code 2. */
  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  @Override
  public Integer call() {
    atLeast(users, 0, "--active-users");
    atLeast(capacity.vcpus, 1, "--vcpus");
    atLeast(mtu, 576, "--mtu"); // IPv4's minimum datagram size
    atLeast(perNetwork, 1, "--peers-per-network");
    if (capacity.observed != null && !List.of("observed", "learned").contains(capacity.observed.trim())) {
      throw usage("--capacity-source can only be 'observed' or 'learned', got '" + capacity.observed + "'");
    }
    boolean observe = prometheus != null;
    if (observe) {
      try {
        window = window(window == null ? DEFAULT_WINDOW : window);
      } catch (IllegalArgumentException e) {
        throw usage(e.getMessage());
      }
      network = network == null ? null : network.trim();
      if (network != null && network.isEmpty()) {
        throw usage("--network needs a name");
      }
    } else if (network != null || window != null) {
      throw usage((network != null ? "--network" : "--window") + " only applies with --from-prometheus");
    }
    if (!observe && users == null) {
      throw usage("--active-users is required");
    }
    Double perUserMbps = perUser.isPresent() ? perUser.getAsDouble() * 8 / 1e6 : null;
    if (!observe && perUserMbps == null) {
      throw usage("--per-user is required");
    }
    if (capacity.observed != null && !observe) {
      throw usage("--capacity-source observed reads the peers' ceilings: it needs --from-prometheus");
    }
    if (datapath != null && capacity.vcpus == null) {
      throw usage("--datapath only applies with --vcpus");
    }
    if (fromState != null && fromStatus != null) {
      throw usage("give one of --from-state and --from-status");
    }
    if ((fromState != null || fromStatus != null) && capacity.vcpus == null) {
      throw usage((fromState != null ? "--from-state" : "--from-status") + " sizes a peer of this CPU: it needs --vcpus");
    }

    double capacityGbps = Double.NaN; // observed: read from Prometheus below
    String capacityBasis = "";
    Datapath dp = datapath == null ? Datapath.KERNEL : datapath;
    int vcpus = 0;
    LearnedCost own = null;
    if (fromState != null || fromStatus != null) {
      try {
        own = fromState != null ? LearnedCost.fromState(fromState) : LearnedCost.fromStatus(fromStatus);
      } catch (IOException e) {
        return fail(e.getMessage());
      }
      // The datapath the peer runs, unless another is asked for (netstack sizes as userspace WireGuard).
      dp = datapath != null ? datapath : own.datapath().userspace() ? Datapath.USERSPACE : Datapath.KERNEL;
      vcpus = capacity.vcpus.intValue();
      capacityGbps = Sizing.thisCpuGbps(own.cost(), own.datapath(), dp, vcpus, mtu.intValue(), direction);
      out.println("Using the cost this peer learned (" + own.from() + ", " + own.datapath().label() + " datapath): "
          + Explainer.thisCpu(ThisCpu.of(own.cost(), Sizing.restingPeer(own.datapath(), vcpus, mtu.intValue()))));
      capacityBasis = "this CPU: its cost per packet spread over " + vcpus + " vCPUs as the reference's was, "
          + dp.label() + " datapath, MTU " + mtu;
    } else if (capacity.vcpus != null) {
      vcpus = capacity.vcpus.intValue();
      capacityGbps = ReferenceProfile.tableGbps(dp, vcpus, direction);
      capacityBasis = Explainer.basis(ReferenceProfile.ceiling(dp, vcpus, ReferenceProfile.BASE_MTU,
          OptionalDouble.empty(), direction)) + "; expect about ±20 %";
    } else if (capacity.rate != null) {
      capacityGbps = Units.gbps(capacity.rate.getAsDouble());
      capacityBasis = "as given";
    } else if (capacity.profileFile != null) {
      Path path = capacity.profileFile;
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
            + " measurement; run `headroom profile` with " + direction.label() + " load, or give --capacity");
        return 1;
      }
      capacityGbps = Units.gbps(c.getAsDouble());
      capacityBasis = "measured: " + p.datapath().label() + " datapath, " + p.cores() + " cores, MTU "
          + p.tunnelMtu() + ", limited by " + p.limit(direction).label();
      dp = p.datapath();
      vcpus = p.cores();
    }

    if (observe) {
      PrometheusQuery prom = new PrometheusQuery(prometheus);
      List<String> lines = new ArrayList<>(); // printed once everything asked for was observed
      lines.add("Observed in Prometheus " + prometheus + ", " + (network == null ? "all peers" : "network " + network)
          + ", over the last " + window + ":");
      String where = (network == null ? "" : " for network " + network) + " in the last " + window;
      String noData = "no census data" + where + ": is the census running? see headroom_source_up{source=\"census\"}"
          + (network == null ? "" : "; and does a peer of that Network run with --labels.network=" + network + "?");
      try {
        if (users != null) {
          lines.add("  active users: " + String.format(Locale.ROOT, "%,d", users) + ", as given (--active-users)");
        } else {
          OptionalDouble peak = prom.single(SizeQueries.peakUsersQuery(network, window));
          if (peak.isEmpty() || !Double.isFinite(peak.getAsDouble())) {
            return fail(noData);
          }
          users = Math.max(0, Math.round(peak.getAsDouble()));
          lines.add("  peak active users: " + String.format(Locale.ROOT, "%,d", users)
              + " (highest 1-minute sum of headroom_tunnels{state=\"active\"})");
        }
        if (perUserMbps != null) {
          lines.add("  per-user rate: " + num(perUserMbps, 3) + " Mbps, as given (--per-user)");
        } else {
          OptionalDouble mean = prom.single(SizeQueries.perUserRateQuery(direction, network, window));
          if (mean.isEmpty()) {
            return fail(noData);
          }
          double bytesPerSecond = mean.getAsDouble();
          if (!(bytesPerSecond > 0) || !Double.isFinite(bytesPerSecond)) {
            return fail("no tunnel was active" + where + ", so no per-user " + direction.label()
                + " rate was observed (the census saw only idle tunnels); give --per-user");
          }
          perUserMbps = bytesPerSecond * 8 / 1e6;
          lines.add("  per-user rate: " + num(perUserMbps, 3) + " Mbps " + direction.label() + " ("
              + String.format(Locale.ROOT, "%,.0f", bytesPerSecond) + " bytes/s, mean over active tunnels:"
              + " rate(_sum) / rate(_count) of headroom_tunnel_rate_bytes_per_second)");
        }
        if (capacity.observed != null) {
          boolean learned = capacity.observed.trim().equals("learned");
          String sources = learned ? "observed|cost" : "observed";
          OptionalDouble lowest = prom.single(SizeQueries.learnedCeilingQuery(direction, network, window, sources));
          if (lowest.isEmpty() || !(lowest.getAsDouble() > 0) || !Double.isFinite(lowest.getAsDouble())) {
            return fail("no peer" + where + " reads its " + direction.label() + " ceiling as " + (learned
                ? "observed or cost (headroom_ceiling_source{source=~\"observed|cost\"}): none has stayed saturated for"
                    + " --ceiling.learn-after or carried load for --ceiling.cost-after yet"
                : "observed (headroom_ceiling_source{source=\"observed\"}): none has stayed saturated for"
                    + " --ceiling.learn-after yet") + "; give --vcpus, --capacity or --profile.file");
          }
          capacityGbps = Units.gbps(lowest.getAsDouble());
          capacityBasis = (learned ? "learned: the lowest " + direction.label() + " ceiling the peers learned from"
              + " their own saturation or CPU cost per packet" : "observed: the lowest " + direction.label()
              + " ceiling the peers learned from their own saturation");
          lines.add("  one peer's capacity: " + num(capacityGbps, 2) + " Gbps " + direction.label() + " (lowest"
              + " headroom_ceiling_bytes_per_second whose headroom_ceiling_source is " + (learned ? "observed or cost"
              : "observed") + ")");
        }
      } catch (PrometheusQuery.QueryException e) {
        return fail(e.getMessage());
      }
      lines.forEach(out::println);
    }

    OptionalDouble lineRateGbps = lineRate.isPresent() ? OptionalDouble.of(Units.gbps(lineRate.getAsDouble()))
        : OptionalDouble.empty();
    Sizing.Inputs in = new Sizing.Inputs(users, perUserMbps, direction, dp, vcpus, capacityGbps, lineRateGbps,
        mtu.intValue(), perNetwork, capacity.vcpus != null && own == null);
    new SizeReport(in, Sizing.plan(in), capacityBasis).print(out);
    return 0;
  }

  private void atLeast(Long n, long min, String name) {
    if (n != null && n < min) {
      throw usage(name + " must be " + (min == 0 ? "0 or more" : "at least " + min) + ", got " + n);
    }
  }

  /** Prometheus could not give what was asked: exit code 1. */
  private int fail(String message) {
    err.println("headroom size: " + message);
    return 1;
  }

  /** Checks a Prometheus duration (2h, 7d, 1w, 1h30m) of at least the 1-minute step of the peak subquery. */
  static String window(String v) {
    String t = v.trim();
    long ms;
    try {
      ms = Quantities.durationOrZero(t).toMillis();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--window must be a Prometheus duration such as 2h, 7d or 1w, got '" + v + "'");
    }
    if (ms < 60_000) {
      throw new IllegalArgumentException("--window must be at least 1m (the peak is taken at 1-minute steps), got '"
          + v + "'");
    }
    return t;
  }

  /**
   * The calculator's command line: values convert by type (whole numbers may group digits with {@code _}), and
   * a flag given twice is an error (picocli's default; Main allows repeats for the sampling commands only).
   */
  static CommandLine commandLine(PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new SizeCommand(out, err));
    cl.registerConverter(Long.class, v -> number(v, t -> Long.parseLong(t.replace("_", "")), "a whole number"));
    cl.registerConverter(URI.class, PrometheusQuery::baseUri);
    // Bit rates as every other command takes them, in bytes per second as everywhere in the code.
    cl.registerConverter(OptionalDouble.class, v -> {
      double bytes;
      try {
        bytes = Quantities.bitRateToBytes(v);
      } catch (IllegalArgumentException e) {
        bytes = 0;
      }
      if (!(bytes > 0) || Double.isInfinite(bytes)) {
        throw new TypeConversionException("must be a bit rate above zero with a unit (e.g. 10mbit, 1gbit, 10gbit),"
            + " got '" + v + "'");
      }
      return OptionalDouble.of(bytes);
    });
    cl.registerConverter(Direction.class, v -> Arrays.stream(Direction.values())
        .filter(d -> d.label().equalsIgnoreCase(v.trim())).findFirst()
        .orElseThrow(() -> new TypeConversionException("must be download or upload, got '" + v + "'")));
    cl.registerConverter(Datapath.class, v -> switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "kernel" -> Datapath.KERNEL;
      case "userspace" -> Datapath.USERSPACE;
      default -> throw new TypeConversionException("must be kernel or userspace, got '" + v + "'");
    });
    return cl;
  }

  private static <T> T number(String v, Function<String, T> parse, String what) {
    try {
      return parse.apply(v.trim());
    } catch (NumberFormatException e) {
      throw new TypeConversionException("must be " + what + ", got '" + v + "'");
    }
  }
}
