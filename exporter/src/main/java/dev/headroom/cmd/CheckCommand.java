package dev.headroom.cmd;

import dev.headroom.daemon.Daemon;
import dev.headroom.config.Config;
import dev.headroom.judge.Verdict;
import dev.headroom.serve.InWords;
import dev.headroom.serve.Published;
import java.io.PrintStream;

/**
 * {@code headroom check}: sample for a few seconds, print the reading in words (verdict, cause and spare per
 * direction), exit 0; exit 1 with a clear message naming the {@code no_datapath} verdict when there is no tunnel
 * interface.
 *
 * <p>Usage: {@code int code = CheckCommand.run(config, System.out, System.err);}
 */
public final class CheckCommand {
  private CheckCommand() {}

  public static int run(Config config, PrintStream out, PrintStream err) throws InterruptedException {
    Published p;
    try (Daemon d = Daemon.start(config, System::nanoTime)) {
      long end = System.nanoTime() + config.commands().checkDuration().toNanos();
      // At least two samples are needed for a rate, whatever the duration says.
      do {
        Thread.sleep(Math.min(200, Math.max(1, config.sampling().interval().toMillis() / 4)));
        p = d.published();
      } while (System.nanoTime() < end || p == null || !p.sample().complete());
    }
    if (!p.sample().tunnelCarried()) {
      // The verdict first, as /metrics and the page name it: a missing tunnel is never read as room.
      err.println("headroom check: verdict " + Verdict.NO_DATAPATH.label() + ": no tunnel interface '"
          + config.sampling().tunnelInterface() + "' under " + config.paths().sysfs().resolve("class/net")
          + ", and NetBird did not answer as connected in netstack mode"
          + " (is NetBird up? another name can be set with --tunnel.interface)");
      return 1;
    }
    out.print(InWords.describe(p, config.ceilings().cpuSaturation()));
    return 0;
  }
}
