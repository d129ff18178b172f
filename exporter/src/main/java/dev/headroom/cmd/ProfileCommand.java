package dev.headroom.cmd;

import dev.headroom.daemon.Daemon;
import static dev.headroom.judge.Units.gbpsText;
import static dev.headroom.judge.Units.num;
import static dev.headroom.judge.Units.pct;

import dev.headroom.config.Config;
import dev.headroom.judge.ArmCost;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.ProfileFile;
import dev.headroom.judge.ProfileSession;
import dev.headroom.judge.Thresholds;
import dev.headroom.sample.Core;
import dev.headroom.sample.CpuQuotaCollector;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import dev.headroom.sample.InterfaceTracker;
import dev.headroom.sample.Sample;
import dev.headroom.sample.SourceHealth;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code headroom profile}: measures this peer's ceiling the way the sizing guide does by hand. It prints one
 * iperf3 client per step (its own port), waits for Enter once the client runs (without input, a step starts when
 * it is printed), and stops when two steps in a row raise throughput by less than 5 % ({@link ProfileSession}).
 * It writes the ceiling of each driven direction with what limited it, keeping an earlier ceiling of the other.
 * With {@code --profile.baseline=HOST} it then steps the same clients to the host over the underlay and reports
 * what the tunnel keeps of that path and the CPU each arm spends. Ctrl-C keeps what was measured so far.
 *
 * <p>Usage: {@code int code = ProfileCommand.run(config, System.in, System.out, System.err, stopFlag);}
 */
public final class ProfileCommand {
  /** Exit code of a run that found no plateau in any direction. */
  public static final int NO_PLATEAU = 3;
  /** iperf3's default port; client N uses FIRST_PORT + N - 1, one server each. */
  static final int FIRST_PORT = 5201;

  private ProfileCommand() {}

  /** Profiles the peer, confirming steps by lines read from {@code in} (the terminal: {@code System.in}). */
  public static int run(Config config, InputStream in, PrintStream out, PrintStream err, AtomicBoolean stop)
      throws InterruptedException {
    BlockingQueue<Sample> samples = new LinkedBlockingQueue<>();
    try (Daemon daemon = Daemon.start(config, System::nanoTime)) {
      daemon.addListener(p -> samples.add(p.sample()));
      return run(config, () -> samples.poll(200, TimeUnit.MILLISECONDS), in, out, err, stop);
    }
  }

  /**
   * Where a run's samples come from, in order, one per sampling interval: the daemon's sampling thread, or
   * anything else that reads the peer. The run takes its time from the samples (each step's settle and measured
   * windows are spans of sample time), so a source that samples a fixture peer on a clock of its own gives the
   * same run however the threads are scheduled.
   */
  @FunctionalInterface
  interface SampleSource {
    /** The next sample, or null when none came within a short wait (the run then checks its stop flag). */
    Sample next() throws InterruptedException;
  }

  /** As {@link #run(Config, InputStream, PrintStream, PrintStream, AtomicBoolean)}, reading {@code samples}. */
  static int run(Config config, SampleSource samples, InputStream in, PrintStream out, PrintStream err,
      AtomicBoolean stop) throws InterruptedException {
    Sample s0 = firstComplete(samples, config.netbird().statusInterval());
    if (!s0.tunnelCarried()) {
      err.println("headroom profile: no tunnel interface '" + config.sampling().tunnelInterface() + "' and no NetBird in"
          + " netstack mode: start NetBird first");
      return 1;
    }
    double quota = quota(s0, err);
    ProfileSession.Settings settings = ProfileSession.Settings.forInterval(
        config.sampling().interval().toMillis() / 1000.0, config.commands().profileSteps(),
        Thresholds.defaults().withCpuSaturation(config.ceilings().cpuSaturation()));
    printInstructions(out, config, s0, quota);
    long deadline = System.nanoTime() + config.commands().profileMaxDuration().toNanos();
    ProfileSession tunnel = new ProfileSession(s0.datapath(), s0.onlineCores(), quota, s0.tunnel().mtu(), settings);
    // Input is read only once a step can be offered: a run that ends on a check before then leaves stdin to
    // whoever else reads it (under a test runner, the runner's own command channel).
    Confirmations steps = new Confirmations(in);
    drive(tunnel, false, "Step", config.commands().profileTarget(), samples, steps, out, stop, deadline);
    Optional<ArmCost> baselineCost = Optional.empty();
    if (config.commands().profileBaseline().isPresent() && tunnel.done() && !stop.get()) {
      String host = config.commands().profileBaseline().get();
      out.printf(Locale.ROOT, "%nWithout the tunnel: stop the clients above; on %s run the same servers; then step the same"
          + " clients to %s over the underlay.%n", host, host);
      ProfileSession b = new ProfileSession(s0.datapath(), s0.onlineCores(), quota, s0.tunnel().mtu(), settings);
      drive(b, true, "Baseline step", host, samples, steps, out, stop, deadline);
      baselineCost = b.cost();
    }
    out.println();
    if (stop.get()) {
      out.println("Stopped: keeping what was measured so far.");
    }
    for (Direction d : Direction.values()) {
      out.println(summary(tunnel, tunnel.result(d)));
    }
    Optional<ArmCost> tunnelCost = tunnel.cost();
    tunnelCost.ifPresent(c -> out.println("through the tunnel: " + costText(c)));
    baselineCost.ifPresent(c -> out.println("without the tunnel: " + costText(c)));
    if (tunnelCost.isPresent() && baselineCost.isPresent()) {
      tunnelCost.get().retained(baselineCost.get())
          .ifPresent(k -> out.println("the tunnel keeps " + pct(k) + " of the path without it"));
    }
    Optional<MeasuredProfile> measured = tunnel.toProfile(Instant.now());
    if (measured.isEmpty()) {
      out.println("No plateau in any driven direction: nothing written. Add load until two steps in a row raise"
          + " throughput by less than 5 %.");
      return NO_PLATEAU;
    }
    try {
      MeasuredProfile earlier = null;
      try {
        earlier = ProfileFile.readIfPresent(config.ceilings().profileFile()).orElse(null);
      } catch (IOException e) {
        err.println("headroom profile: replacing unreadable " + config.ceilings().profileFile() + ": " + e.getMessage());
      }
      MeasuredProfile written = measured.get().keepingFrom(earlier);
      ProfileFile.write(config.ceilings().profileFile(), written);
      MeasuredProfile m = measured.get();
      out.println("Wrote " + config.ceilings().profileFile() + ": measured " + directions(d -> m.ceiling(d).isPresent())
          + (written.equals(m) ? "" : ", kept the earlier "
              + directions(d -> m.ceiling(d).isEmpty() && written.ceiling(d).isPresent()) + " ceiling")
          + "; 'headroom serve' uses it as this peer's ceiling.");
    } catch (IOException e) {
      err.println("headroom profile: cannot write " + config.ceilings().profileFile() + ": " + e.getMessage());
      return 1;
    }
    return 0;
  }

  /** Offers steps and feeds samples until the session is done, stopped, or out of time. */
  private static void drive(ProfileSession session, boolean underlay, String word, String host,
      SampleSource samples, Confirmations steps, PrintStream out, AtomicBoolean stop, long deadline)
      throws InterruptedException {
    boolean tty = System.console() != null;
    boolean offered = false;
    double now = Double.NaN;
    long lastPrint = 0;
    int measured = 0;
    while (!stop.get() && System.nanoTime() < deadline && !session.done()) {
      if (session.wantsStep() && !offered) {
        steps.clear(); // before the offer is printed: an Enter answering it must count
        int n = session.stepsBegun() + 1;
        int port = FIRST_PORT + n - 1;
        out.printf(Locale.ROOT, "%n%s %d: start client %d: iperf3 -c %s -p %d -R -P 4 -t 600 (download: the peer encrypts),"
            + " or without -R (upload: the peer decrypts)%s%n", word, n, n, host, port,
            steps.exhausted() ? "" : "; press Enter when it runs");
        out.flush();
        offered = true;
      }
      Sample s = samples.next();
      if (s != null && s.complete()) {
        now = s.monotonicNanos() / 1e9;
      }
      if (offered && session.wantsStep() && steps.confirmed() && !Double.isNaN(now)) {
        session.beginStep(now);
        offered = false;
      }
      // An interval whose rates are unknown (unreadable or implausible counters) is no point on the curve.
      if (s == null || !s.complete()) {
        continue;
      }
      session.add(toProfileInterval(s, underlay));
      if (session.stepsBegun() > measured && (session.wantsStep() || session.done())) {
        measured = session.stepsBegun();
        out.println((tty ? "\r" : "") + stepLine(session));
      } else if (tty) {
        out.print("\r" + progressLine(session) + "   ");
        out.flush();
      } else if (s.monotonicNanos() - lastPrint >= 5_000_000_000L) {
        out.println(progressLine(session));
        lastPrint = s.monotonicNanos();
      }
    }
  }

  /**
   * The sample as profile reads it: the tunnel's rates, or for the arm without the tunnel the underlay's. When a
   * core has no interval of its own (its tick counters did not move, or went backwards) the sample's CPU is
   * unknown, not idle: no per-core busy, so the step's CPU is judged from the samples that measured it.
   */
  static ProfileSession.Interval toProfileInterval(Sample s, boolean underlay) {
    List<Core> online = s.cores().stream().filter(Core::online).toList();
    PerDirection<Double> rate = underlay
        ? new PerDirection<>(s.underlayTraffic().rate(InterfaceTracker.TX_BYTES), s.underlayTraffic().rate(InterfaceTracker.RX_BYTES))
        : PerDirection.of(s::throughput);
    PerDirection<Double> packets = underlay
        ? new PerDirection<>(s.underlayTraffic().rate(InterfaceTracker.TX_PACKETS), s.underlayTraffic().rate(InterfaceTracker.RX_PACKETS))
        : PerDirection.of(s::packetRate);
    boolean measured = online.stream().allMatch(Core::hasShares);
    return new ProfileSession.Interval(s.monotonicNanos() / 1e9, rate, packets,
        measured ? online.stream().mapToDouble(Core::busy).toArray() : new double[0],
        PerDirection.of(s::underlayUtilization), s.datapathAllowedBusy(),
        cores(online, Core::user), cores(online, Core::system), cores(online, Core::softirq));
  }

  private static double cores(List<Core> online, java.util.function.ToDoubleFunction<Core> f) {
    return online.isEmpty() ? Double.NaN : online.stream().mapToDouble(f).sum();
  }

  /** The quota the sampler read with the first sample; a bad {@code cpu.max} is named and read as none. */
  private static double quota(Sample s, PrintStream err) {
    SourceHealth h = s.source(CpuQuotaCollector.SOURCE);
    if (h != null && !h.up()) {
      err.println("headroom profile: " + h.lastError());
    }
    return s.cpuQuotaCores();
  }

  /** The labels of the directions {@code which} holds for: "download and upload". */
  private static String directions(java.util.function.Predicate<Direction> which) {
    return String.join(" and ", java.util.Arrays.stream(Direction.values()).filter(which).map(Direction::label).toList());
  }

  /** e.g. {@code step 2:  download 0.31 Gbps (+12%)  upload 0.01 Gbps}: the last measured step. */
  public static String stepLine(ProfileSession session) {
    int n = session.stepsMeasured();
    if (n == 0) {
      return "no step measured yet";
    }
    StringBuilder b = new StringBuilder("step ").append(n).append(':');
    for (Direction d : Direction.values()) {
      double g = session.gain(d, n);
      b.append("  ").append(d.label()).append(' ').append(gbpsText(session.level(d, n)))
          .append(Double.isNaN(g) ? "" : " (" + (g >= 0 ? "+" : "") + pct(g) + ")");
    }
    return b.toString();
  }

  /** e.g. {@code 42s  step 2 measuring  download 5.21 Gbps  upload 0.1 Gbps  busiest cores 98% 97% 40%  underlay tx 52% rx 3%} */
  public static String progressLine(ProfileSession session) {
    if (session.lastSample().isEmpty()) {
      return "waiting for the first sample";
    }
    ProfileSession.Interval s = session.lastSample().get();
    StringBuilder b = new StringBuilder(num(s.seconds(), 0)).append("s  step ").append(session.stepsBegun())
        .append(' ').append(switch (session.phase()) {
          case WAITING_FOR_LOAD -> "waiting for load";
          case SETTLING -> "settling";
          case MEASURING -> "measuring";
          case STEP_MEASURED -> "measured";
          case PLATEAU -> "plateau";
          case OUT_OF_STEPS -> "last";
        });
    for (Direction d : Direction.values()) {
      b.append("  ").append(d.label()).append(' ').append(gbpsText(s.rate(d)));
    }
    double[] busy = s.coreBusy();
    java.util.Arrays.sort(busy);
    b.append("  busiest cores").append(busy.length == 0 ? " unknown" : "");
    for (int i = busy.length - 1; i >= Math.max(0, busy.length - 3); i--) {
      b.append(' ').append(pct(busy[i]));
    }
    return b.append("  underlay tx ").append(pct(s.util(Direction.DOWNLOAD))).append(" rx ")
        .append(pct(s.util(Direction.UPLOAD))).toString();
  }

  /** What became of a direction, in one line with the figures it rests on. */
  public static String summary(ProfileSession session, ProfileSession.DirectionResult r) {
    Direction d = r.direction();
    String best = gbpsText(r.bytesPerSecond());
    return d.label() + switch (r.outcome()) {
      case NOT_DRIVEN -> ": not driven (" + (r.bytesPerSecond() < ProfileSession.FLOOR_BYTES_PER_SECOND ? "not loaded"
          : "its " + best + " is " + pct(r.bytesPerSecond() / r.otherBest()) + " of " + d.other().label()
              + "'s, the other direction's ACK stream") + "): not measured, any earlier ceiling is kept";
      case NO_PLATEAU -> ": no plateau after " + r.steps() + " step" + (r.steps() == 1 ? "" : "s") + ", best " + best
          + "; not written: add load (more clients or streams) until two steps in a row raise it by less than "
          + pct(session.settings().minGain());
      case MEASURED -> ": plateau at " + best + packetsText(r.packetBytes()) + " after " + r.steps() + " steps, limited by "
          + ProfileFile.limitLabel(r.limit()) + " (" + why(session, r) + "); " + session.datapath().label()
          + " datapath, " + session.cores() + " cores, MTU " + session.tunnelMtu();
    };
  }

  private static String packetsText(double packetBytes) {
    return Double.isNaN(packetBytes) ? "" : " in " + Math.round(packetBytes) + "-byte packets";
  }

  private static String why(ProfileSession session, ProfileSession.DirectionResult r) {
    ProfileSession.Figures f = r.on();
    String cores = num(session.peerCores(), 2);
    return switch (r.limit()) {
      case LINK_FULL -> "underlay " + r.direction().side() + " at "
          + pct(f.underlay());
      // The CPU is full when all usable cores are, or (userspace) the cores the datapath may run on.
      case CORES_SATURATED -> session.allCoresBusy(f)
          ? "all " + cores + " usable cores busy (" + num(f.busyCores(), 2) + ")"
          : "the cores the datapath may run on at " + pct(f.allowedBusy());
      case ONE_TUNNEL_CORE -> "one core at " + pct(f.hottest()) + ", the others at " + pct(f.othersBusy())
          + ": one tunnel's limit, not the peer's; more users or tunnels (or another peer) raise it, a bigger box"
          + " does not";
      case AT_CEILING -> "at the reference figure for " + cores + " cores with cores idle (" + num(f.busyCores(), 2)
          + " busy): the datapath does not spread further";
      default -> "neither the cores (" + (Double.isNaN(f.busyCores()) ? "?" : num(f.busyCores(), 2)) + " of "
          + cores + " busy) nor the underlay (" + pct(f.underlay()) + ") was full: the load generator or the far"
          + " side may be the limit";
    };
  }

  /** e.g. {@code 0.31 Gbps, CPU 6.10 s/Gbit (user 3.20, system 1.90, softirq 1.00)} */
  public static String costText(ArmCost c) {
    return gbpsText(c.bytesPerSecond()) + ", CPU " + seconds(c.secondsPerGbit()) + " s/Gbit (user "
        + seconds(c.userSecondsPerGbit()) + ", system " + seconds(c.systemSecondsPerGbit()) + ", softirq "
        + seconds(c.softirqSecondsPerGbit()) + ")";
  }

  private static String seconds(double v) {
    return Double.isNaN(v) ? "?" : num(v, 2);
  }

  /**
   * The first sample with rates and cores (a failed CPU read has none), or one without a tunnel once NetBird had
   * time to answer: with no interface, only its status call (every {@code netbirdWait}) can say netstack.
   */
  private static Sample firstComplete(SampleSource q, java.time.Duration netbirdWait)
      throws InterruptedException {
    long start = System.nanoTime();
    while (true) {
      Sample p = q.next();
      if (p == null) {
        continue;
      }
      boolean carried = p.tunnelCarried();
      if (carried && p.complete() && p.onlineCores() > 0) {
        return p;
      }
      if (!carried && (p.source("netbird_status") == null
          || System.nanoTime() - start > netbirdWait.toNanos() + 1_000_000_000L)) {
        return p;
      }
    }
  }

  private static void printInstructions(PrintStream out, Config c, Sample s, double quota) {
    String host = c.commands().profileTarget();
    out.printf(Locale.ROOT, "Profiling %s (%s datapath, %d cores%s, MTU %d). Drive load through the tunnel with iperf3 >= 3.16.%n",
        c.sampling().tunnelInterface(), s.datapath().label(), s.onlineCores(),
        Double.isNaN(quota) ? "" : String.format(Locale.ROOT, " (quota %.2f)", quota), s.tunnel().mtu());
    int last = FIRST_PORT + c.commands().profileSteps() - 1;
    // One server serves one client at a time: client N uses its own port, as these servers listen.
    out.printf(Locale.ROOT, "On %s, behind this peer, one server per client:   for p in $(seq %d %d); do iperf3 -s -D -p $p; done%n",
        host, FIRST_PORT, last);
    out.println("Each step adds one client in the same direction; the run ends when two steps in a row raise"
        + " throughput by less than 5 %. Ctrl-C keeps what was measured.");
  }

  /**
   * Lines from the operator, each confirming that the offered step's load runs. At end of input (no terminal,
   * a closed pipe) every offered step counts as confirmed: the step's settle time covers starting the client.
   */
  private static final class Confirmations {
    private final AtomicInteger lines = new AtomicInteger();
    private final AtomicBoolean eof = new AtomicBoolean();

    Confirmations(InputStream in) {
      Thread t = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
          while (r.readLine() != null) {
            lines.incrementAndGet();
          }
        } catch (IOException e) {
          // An unreadable input is no input: steps start when offered.
        }
        eof.set(true);
      }, "profile-input");
      t.setDaemon(true);
      t.start();
    }

    /** Forgets Enter pressed before the step was offered: it confirmed nothing. */
    void clear() {
      lines.set(0);
    }

    boolean confirmed() {
      return eof.get() || lines.get() > 0;
    }

    boolean exhausted() {
      return eof.get();
    }
  }
}
