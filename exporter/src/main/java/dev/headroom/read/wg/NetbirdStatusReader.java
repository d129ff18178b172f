package dev.headroom.read.wg;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code netbird status --json} and parses it. Any failure gives {@link Optional#empty()}: NetBird
 * not installed (a plain WireGuard peer), daemon not running, not logged in (NetBird then prints text,
 * not JSON), or output headroom cannot read. Each distinct problem is logged once, not every sample;
 * {@link #lastProblem()} keeps it for a status page or a {@code source_up} metric.
 *
 * <p>Recent clients probe STUN/TURN servers while answering {@code status}, which can take seconds:
 * call this on a slower cadence than the per-second sampler, and off its thread (every 15-30 s is plenty for peer
 * counts; the netstack datapath's bytes ask every few seconds, when NetBird throttles its probe and only refreshes
 * the counters). Not thread-safe: one thread calls it.
 *
 * <p>Usage: {@code new NetbirdStatusReader("netbird", Duration.ofSeconds(10)).read().ifPresent(s -> ...);}
 */
public final class NetbirdStatusReader {

  private static final Logger LOG = LoggerFactory.getLogger(NetbirdStatusReader.class);

  private final String netbirdCommand;
  private final Duration timeout;
  private final ProblemLog problems = new ProblemLog(LOG);

  /**
   * @param netbirdCommand the {@code netbird} executable (a name looked up on PATH, or a path)
   * @param timeout how long the command may take before it is killed, above zero
   */
  public NetbirdStatusReader(String netbirdCommand, Duration timeout) {
    this.netbirdCommand = netbirdCommand;
    this.timeout = timeout;
  }

  /** The status, or empty when NetBird is absent, down, logged out or unreadable. */
  public Optional<NetbirdStatus> read() {
    CommandRunner.Result r;
    try {
      r = CommandRunner.run(List.of(netbirdCommand, "status", "--json"), timeout);
    } catch (CommandRunner.NotInstalledException e) {
      return problems.failed("netbird not installed (" + netbirdCommand + " not found); NetBird peer counts are off", true);
    } catch (IOException e) {
      return problems.failed(e.getMessage(), false);
    }
    if (r.exitCode() != 0) {
      String err = firstLine(r.stderr().isBlank() ? r.stdout() : r.stderr());
      return problems.failed(netbirdCommand + " status --json exited " + r.exitCode() + ": " + err, false);
    }
    String out = r.stdout().strip();
    if (!out.startsWith("{")) {
      return problems.failed("netbird status gave no JSON: " + firstLine(out), false);
    }
    try {
      NetbirdStatus s = NetbirdStatusParser.parse(out);
      problems.ok("netbird status readable again");
      return Optional.of(s);
    } catch (IllegalArgumentException e) {
      return problems.failed("cannot read netbird status --json: " + e.getMessage(), false);
    }
  }

  /** Why the last {@link #read()} came back empty; empty after a successful read. */
  public Optional<String> lastProblem() {
    return problems.last();
  }


  private static String firstLine(String s) {
    String t = s.strip();
    int nl = t.indexOf('\n');
    t = nl < 0 ? t : t.substring(0, nl);
    return t.length() <= 200 ? t : t.substring(0, 200) + "...";
  }
}
