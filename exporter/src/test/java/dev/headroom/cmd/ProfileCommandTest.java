package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.config.Config;
import dev.headroom.config.ConfigParser;
import dev.headroom.judge.Cause;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.ProfileFile;
import dev.headroom.judge.ProfileSession;
import dev.headroom.read.CpuSource;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sampler;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.LogCapture;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code profile} against a fixture peer whose download rises and then flattens as the printed steps add clients. */
class ProfileCommandTest {
  @TempDir Path dir;

  @Test
  void eachStepAddsAClientOnItsOwnPortAndTheCeilingIsWrittenOnlyAfterTwoFlatSteps() throws Exception {
    Path profile = dir.resolve("ceiling.properties");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code;
    try (LogCapture log = LogCapture.start()) {
      code = profileUnderLoad(true, profile, out, "--profile.max-duration=90s", "--profile.target=10.0.0.5");
      assertEquals(0, log.count("--underlay.line-rate"), "every interval was within the line rate: " + log.text());
    }
    String o = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, o);
    assertTrue(o.contains("Step 1: start client 1: iperf3 -c 10.0.0.5 -p 5201 -R"), o);
    assertTrue(o.contains("Step 2: start client 2: iperf3 -c 10.0.0.5 -p 5202 -R"), o);
    // Client 2 doubled the rate; clients 3 and 4 added nothing: the plateau is declared at step 4, not earlier.
    assertTrue(o.contains("Step 4: start client 4: iperf3 -c 10.0.0.5 -p 5204 -R"), o);
    assertFalse(o.contains("Step 5:"), o);
    assertTrue(o.contains("download: plateau at") && o.contains("after 4 steps"), o);
    assertTrue(o.contains("upload: not driven (not loaded)"), o);
    MeasuredProfile p = ProfileFile.read(profile);
    double ceiling = p.ceiling(Direction.DOWNLOAD).getAsDouble();
    assertTrue(ceiling > 0.8e9 && ceiling < 1.2e9, "measured " + ceiling);
    assertEquals(Cause.CORES_SATURATED, p.limit(Direction.DOWNLOAD));
    assertFalse(p.ceiling(Direction.UPLOAD).isPresent());
  }

  @Test
  void anEarlierUploadCeilingSurvivesADownloadRun() throws Exception {
    Path profile = dir.resolve("ceiling.properties");
    Files.writeString(profile, "upload.bytes_per_second=300000000\nupload.limit=link\nmeasured.cores=4\n"
        + "measured.datapath=kernel\nmeasured.mtu=1280\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = profileUnderLoad(true, profile, out, "--profile.max-duration=90s");
    String o = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, o);
    assertTrue(o.contains("measured download, kept the earlier upload ceiling"), o);
    MeasuredProfile p = ProfileFile.read(profile);
    assertEquals(3e8, p.ceiling(Direction.UPLOAD).getAsDouble(), 1.0);
    assertEquals(Cause.LINK_FULL, p.limit(Direction.UPLOAD));
    assertTrue(p.ceiling(Direction.DOWNLOAD).isPresent());
  }

  @Test
  void theArmWithoutTheTunnelReportsWhatTheTunnelKeepsAndEachArmsCpuPerGbit() throws Exception {
    Path profile = dir.resolve("ceiling.properties");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = profileUnderLoad(true, profile, out, "--profile.max-duration=120s", "--profile.target=10.0.0.5",
        "--profile.baseline=192.0.2.7", "--underlay.line-rate=40gbit");
    String o = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, o);
    assertTrue(o.contains("Baseline step 1: start client 1: iperf3 -c 192.0.2.7 -p 5201 -R"), o);
    // Through the tunnel 1 GB/s, without it 2 GB/s: the tunnel keeps half of the path.
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("the tunnel keeps (\\d+)% of the path without it")
        .matcher(o);
    assertTrue(m.find(), o);
    int kept = Integer.parseInt(m.group(1));
    assertTrue(kept >= 40 && kept <= 60, "kept " + kept + "%: " + o);
    assertTrue(o.contains("through the tunnel: ") && o.contains("without the tunnel: "), o);
    assertTrue(o.matches("(?s).*through the tunnel: [0-9.]+ Gbps, CPU [0-9.]+ s/Gbit \\(user [0-9.]+, system [0-9.]+,"
        + " softirq [0-9.]+\\).*"), o);
    assertTrue(ProfileFile.read(profile).ceiling(Direction.DOWNLOAD).isPresent(), "the tunnel arm is what is written");
  }

  @Test
  void aRunWithoutPlateauSaysSoAndWritesNothing() throws Exception {
    Path profile = dir.resolve("ceiling.properties");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = profileUnderLoad(false, profile, out, "--profile.max-duration=90s", "--profile.steps=3");
    String o = out.toString(StandardCharsets.UTF_8);
    assertEquals(ProfileCommand.NO_PLATEAU, code, o);
    assertTrue(o.contains("no plateau after 3 steps"), o);
    assertFalse(Files.exists(profile));
  }

  @Test
  void aLineRateBelowWhatTheTunnelCarriesIsNamedOnceRatherThanWaitedOnInSilence() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (LogCapture log = LogCapture.start()) {
      // Told 1gbit, the sampler counts at most twice 0.125 GB/s: the first client's 0.5 GB/s is dropped every interval.
      int code = profileUnderLoad(true, dir.resolve("ceiling.properties"), out, "--profile.max-duration=1s",
          "--underlay.line-rate=1gbit");
      assertEquals(ProfileCommand.NO_PLATEAU, code, out.toString(StandardCharsets.UTF_8));
      assertFalse(out.toString(StandardCharsets.UTF_8).contains("step 1:"), "no interval could be measured");
      java.util.List<String> told = log.text().lines().filter(l -> l.contains("--underlay.line-rate")).toList();
      assertEquals(1, told.size(), log.text());
      assertTrue(told.get(0).contains("wt0") && told.get(0).contains("twice 1.0 Gbit/s"), told.get(0));
    }
  }

  @Test
  void aSampleWhoseCoresDidNotTickHasUnknownCpuForTheProfileNotIdleCores() throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir.resolve("tree"));
    FakeClock clock = new FakeClock();
    Sampler sampler = new Sampler(ConfigParser.parse(new String[] {"--path.sysfs=" + t.sys(), "--path.procfs=" + t.proc(),
        "--path.rundir=" + dir.resolve("run")}).config(), CpuSource.forRoots(t.sys(), t.proc()),
        clock, () -> 1_764_460_800_000L, Runnable::run, null);
    sampler.sample();
    t.addCounter("wt0", "tx_bytes", 1_000_000_000L);
    for (int c = 0; c < 4; c++) {
      t.addCpuTicks(c, 50, 0, 0, 0, 0, 0, 50, 0);
    }
    clock.advanceSeconds(1);
    ProfileSession.Interval ticked = ProfileCommand.toProfileInterval(sampler.sample(), false);
    assertArrayEquals(new double[] {1, 1, 1, 1}, ticked.coreBusy(), 1e-9);
    assertEquals(2.0, ticked.softirqCores(), 1e-9);

    // Bytes moved but /proc/stat did not: the interval says nothing about the cores, so it must not read as 0 %.
    t.addCounter("wt0", "tx_bytes", 1_000_000_000L);
    clock.advanceSeconds(1);
    ProfileSession.Interval still = ProfileCommand.toProfileInterval(sampler.sample(), false);
    assertEquals(1e9, still.rate(dev.headroom.sample.Direction.DOWNLOAD), 1e-3);
    assertEquals(0, still.coreBusy().length, "no per-core busy: unknown, not " + java.util.Arrays.toString(still.coreBusy()));
    assertTrue(Double.isNaN(still.userCores()) && Double.isNaN(still.softirqCores()));
  }

  /**
   * Under a test runner or a supervisor, stdin is someone else's channel (Maven's surefire sends its forked JVM
   * commands there, and a reader that takes the exit acknowledgement leaves the fork waiting 30 s to be killed). A
   * run that ends on a check before its first step has nothing to read, so it must not start reading.
   */
  @Test
  void aRunThatEndsBeforeItsFirstStepLeavesItsInputUnread() throws Exception {
    org.awaitility.Awaitility.await("other tests' input readers at end of their input").atMost(Duration.ofSeconds(10))
        .until(() -> inputReaders() == 0);
    FixtureTree t = FixtureTree.copy("notunnel", dir.resolve("tree"));
    CountDownLatch release = new CountDownLatch(1);
    InputStream held = new InputStream() {
      @Override
      public int read() throws IOException {
        try {
          release.await(); // a reader started on this input stays alive here until the test ends
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return -1;
      }
    };
    try {
      int code = ProfileCommand.run(ConfigParser.parse(new String[] {"--path.sysfs=" + t.sys(),
          "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s",
          "--sample.interval=100ms"}).config(), held, System.out, new PrintStream(new ByteArrayOutputStream()),
          new AtomicBoolean());
      assertEquals(1, code);
      assertEquals(0, inputReaders(), "threads reading the profile's input after it ended on the no-tunnel check");
    } finally {
      release.countDown();
    }
  }

  private static long inputReaders() {
    return Thread.getAllStackTraces().keySet().stream().filter(th -> th.getName().equals("profile-input")).count();
  }

  @Test
  void noTunnelIsAClearError() throws Exception {
    FixtureTree t = FixtureTree.copy("notunnel", dir.resolve("tree"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ProfileCommand.run(ConfigParser.parse(new String[] {"--path.sysfs=" + t.sys(),
        "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s", "--sample.interval=100ms"}).config(),
        new ByteArrayInputStream(new byte[0]), System.out, new PrintStream(err, true, StandardCharsets.UTF_8),
        new AtomicBoolean());
    assertEquals(1, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no tunnel interface 'wt0'"));
  }

  /**
   * Runs {@code profile} on a kernel fixture peer whose counters move as the printed steps say. The run reads a
   * sampler on a clock of the test's own: before each sample the load moves the counters and the clock on by one
   * interval together, so every interval carries exactly its share of bytes and CPU ticks however the machine
   * schedules the threads. Its input is empty, so each step starts when it is printed.
   */
  private int profileUnderLoad(boolean plateau, Path profile, ByteArrayOutputStream out, String... extra)
      throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir.resolve("tree"));
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--path.sysfs=" + t.sys(),
        "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s",
        "--sample.interval=200ms", "--profile.file=" + profile, "--path.cgroupfs=" + dir.resolve("cgroup")));
    args.addAll(java.util.List.of(extra));
    Config config = ConfigParser.parse(args.toArray(String[]::new)).config();
    FakeClock clock = new FakeClock();
    Sampler sampler = new Sampler(config, CpuSource.forRoots(config.paths().sysfs(), config.paths().procfs()), clock,
        () -> 1_764_460_800_000L, Runnable::run, null);
    Load load = new Load(t, clock, plateau, out, config.sampling().interval().toNanos() / 1e9);
    return ProfileCommand.run(config, () -> {
      load.intervalPassed();
      return sampler.sample();
    }, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
        new AtomicBoolean());
  }

  /**
   * The load the printed steps ask for, one sampling interval at a time: wt0 transmits 0.5 GB/s per client up to
   * 1 GB/s (or, with {@code plateau} false, 0.5 GB/s more for every client); the arm without the tunnel stops the
   * tunnel's clients and moves only the underlay, 1 GB/s per client up to 2 GB/s. All four cores busy.
   */
  private static final class Load {
    private final FixtureTree tree;
    private final FakeClock clock;
    private final boolean plateau;
    private final ByteArrayOutputStream out;
    private final double seconds;
    private boolean baselineTaken;

    Load(FixtureTree tree, FakeClock clock, boolean plateau, ByteArrayOutputStream out, double seconds) {
      this.tree = tree;
      this.clock = clock;
      this.plateau = plateau;
      this.out = out;
      this.seconds = seconds;
    }

    /** Moves the counters by one interval at the rates the output asks for now, and the clock with them. */
    void intervalPassed() {
      if (!baselineTaken) {
        baselineTaken = true; // the first sample is the baseline: nothing has passed before it
        return;
      }
      String printed = out.toString(StandardCharsets.UTF_8);
      int clients = printed.split("\nStep \\d+: start client", -1).length - 1;
      int baseline = printed.split("\nBaseline step \\d+: start client", -1).length - 1;
      double rate = printed.contains("Without the tunnel") ? 0
          : plateau ? Math.min(1e9, 0.5e9 * clients) : 0.5e9 * clients;
      double underlay = Math.min(2e9, 1e9 * baseline);
      long bytes = (long) (rate * seconds);
      long ulBytes = (long) (underlay * seconds);
      tree.addCounter("wt0", "tx_bytes", bytes);
      tree.addCounter("wt0", "tx_packets", bytes / 1250);
      tree.addCounter("eth0", "tx_bytes", ulBytes);
      tree.addCounter("eth0", "tx_packets", ulBytes / 1500);
      long ticks = Math.round(seconds * 100); // USER_HZ
      for (int c = 0; c < 4; c++) {
        tree.addCpuTicks(c, ticks / 2, 0, 0, 0, 0, 0, ticks - ticks / 2, 0);
      }
      clock.advanceSeconds(seconds);
    }
  }
}
