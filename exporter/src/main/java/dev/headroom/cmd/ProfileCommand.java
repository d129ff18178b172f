package dev.headroom.cmd;

import dev.headroom.config.Config;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.PlateauDetector;
import dev.headroom.judge.ProfileFile;
import dev.headroom.judge.ProfileSession;
import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.serve.Published;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code headroom profile}: measures this peer's ceiling the way the sizing guide does by hand. It prints
 * the iperf3 commands that drive load, watches the tunnel while the operator adds load, stops when
 * throughput stops rising, and writes the ceiling with what limited it and the conditions it was measured
 * under. Ctrl-C keeps what was measured so far.
 *
 * <p>Usage: {@code int code = ProfileCommand.run(config, System.out, System.err, stopFlag);}
 */
public final class ProfileCommand {
  /** Exit code of a run that found no plateau in any direction. */
  public static final int NO_PLATEAU = 3;

  private ProfileCommand() {}

  public static int run(Config config, PrintStream out, PrintStream err, AtomicBoolean stop)
      throws InterruptedException {
    BlockingQueue<Published> samples = new LinkedBlockingQueue<>();
    ProfileSession session;
    try (Daemon daemon = Daemon.start(config)) {
      daemon.addListener(samples::add);
      Published first = firstComplete(samples);
      Sample s0 = first.sample();
      if (!s0.tunnel().present()) {
        err.println("headroom profile: no tunnel interface '" + config.tunnelInterface() + "': start NetBird first");
        return 1;
      }
      printInstructions(out, config, s0);
      // Windows scale with the interval so a faster sampler needs proportionally less time per window.
      double window = 10 * config.sampleInterval().toMillis() / 1000.0;
      session = new ProfileSession(s0.datapath(), s0.onlineCores(), s0.tunnel().mtu(),
          () -> new PlateauDetector(window, 0.05, 0.90, 3));
      long deadline = System.nanoTime() + config.profileMaxDuration().toNanos();
      boolean tty = System.console() != null;
      long lastPrint = 0;
      while (!stop.get() && System.nanoTime() < deadline && !session.done()) {
        Published p = samples.poll(200, TimeUnit.MILLISECONDS);
        // An interval whose rate is unknown (unreadable or implausible counters) is no point on the curve.
        if (p == null || !p.sample().complete() || Double.isNaN(p.sample().throughput(Direction.DOWNLOAD))
            || Double.isNaN(p.sample().throughput(Direction.UPLOAD))) {
          continue;
        }
        Sample s = p.sample();
        session.add(new ProfileSession.Interval(s.monotonicNanos() / 1e9, s.throughput(Direction.DOWNLOAD),
            s.throughput(Direction.UPLOAD), s.cores().stream().filter(Core::online).mapToDouble(Core::busy).toArray(),
            s.underlayUtilization(Direction.DOWNLOAD), s.underlayUtilization(Direction.UPLOAD)));
        if (tty) {
          out.print("\r" + session.progressLine() + "   ");
          out.flush();
        } else if (s.monotonicNanos() - lastPrint >= 5_000_000_000L) {
          out.println(session.progressLine());
          lastPrint = s.monotonicNanos();
        }
      }
    }
    out.println();
    if (stop.get()) {
      out.println("Stopped: keeping what was measured so far.");
    }
    for (Direction d : Direction.values()) {
      out.println(session.result(d).summary());
    }
    Optional<MeasuredProfile> profile = session.toProfile(Instant.now());
    if (profile.isEmpty()) {
      out.println("No plateau in any direction: nothing written. Add load until throughput stops rising.");
      return NO_PLATEAU;
    }
    try {
      ProfileFile.write(config.profileFile(), profile.get());
    } catch (IOException e) {
      err.println("headroom profile: cannot write " + config.profileFile() + ": " + e.getMessage());
      return 1;
    }
    out.println("Wrote " + config.profileFile() + "; 'headroom serve' uses it as this peer's ceiling.");
    return 0;
  }

  /** The first sample with rates and cores (a failed CPU read has none), or the first without a tunnel. */
  private static Published firstComplete(BlockingQueue<Published> q) throws InterruptedException {
    while (true) {
      Published p = q.take();
      if (!p.sample().tunnel().present() || (p.sample().complete() && p.sample().onlineCores() > 0)) {
        return p;
      }
    }
  }

  private static void printInstructions(PrintStream out, Config c, Sample s) {
    String host = c.profileTarget();
    out.printf("Profiling %s (%s datapath, %d cores, MTU %d). Drive load through the tunnel with iperf3 >= 3.16:%n",
        c.tunnelInterface(), s.datapath().label(), s.onlineCores(), s.tunnel().mtu());
    out.printf("  on %s, behind this peer, one server per client:   for p in 5201 5202 5203 5204; do iperf3 -s -D -p $p; done%n", host);
    // One server serves one client at a time: client N uses port 5200+N, as the servers above listen.
    for (int n = 1; n <= 4; n++) {
      out.printf("  client %d: download (the peer encrypts) iperf3 -c %s -p %d -R -P 4 -t 600;"
          + " or upload (the peer decrypts) iperf3 -c %s -p %d -P 4 -t 600%n", n, host, 5200 + n, host, 5200 + n);
    }
    out.println("Start one client, then add clients (one port each) until the rate stops rising. Ctrl-C keeps what was measured.");
  }
}
