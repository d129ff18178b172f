package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.config.ConfigParser;
import dev.headroom.judge.Limit;
import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.ProfileFile;
import dev.headroom.sample.Direction;
import dev.headroom.testing.FixtureTree;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    int code = profileUnderLoad(true, profile, out, "--profile.max-duration=90s", "--profile.target=10.0.0.5");
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
    assertEquals(Limit.CPU, p.limit(Direction.DOWNLOAD));
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
    assertEquals(Limit.LINK, p.limit(Direction.UPLOAD));
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
  void noTunnelIsAClearError() throws Exception {
    FixtureTree t = FixtureTree.copy("notunnel", dir.resolve("tree"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ProfileCommand.run(ConfigParser.parse(new String[] {"--path.sysfs=" + t.sys(),
        "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s", "--sample.interval=100ms"}).config(),
        System.out, new PrintStream(err, true, StandardCharsets.UTF_8), new AtomicBoolean());
    assertEquals(1, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no tunnel interface 'wt0'"));
  }

  /**
   * Runs {@code profile} on a kernel fixture peer while a thread drives its counters as the printed steps say.
   * Its input is empty, so each step starts when it is printed.
   */
  private int profileUnderLoad(boolean plateau, Path profile, ByteArrayOutputStream out, String... extra)
      throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir.resolve("tree"));
    AtomicBoolean stop = new AtomicBoolean();
    Thread load = new Thread(() -> drive(t, stop, plateau, out), "load");
    load.start();
    try {
      java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--path.sysfs=" + t.sys(),
          "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s",
          "--sample.interval=200ms", "--profile.file=" + profile, "--path.cgroupfs=" + dir.resolve("cgroup")));
      args.addAll(java.util.List.of(extra));
      return ProfileCommand.run(ConfigParser.parse(args.toArray(String[]::new)).config(),
          new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
          new AtomicBoolean());
    } finally {
      stop.set(true);
      load.join();
    }
  }

  /**
   * Moves wt0's transmit counter in real time at a rate set by the clients the output has asked for: 0.5 GB/s
   * per client up to 1 GB/s (or, with {@code plateau} false, 0.5 GB/s more for every client). All four cores busy.
   */
  private static void drive(FixtureTree t, AtomicBoolean stop, boolean plateau, ByteArrayOutputStream out) {
    long last = System.nanoTime();
    while (!stop.get()) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      String printed = out.toString(StandardCharsets.UTF_8);
      int clients = printed.split("\nStep \\d+: start client", -1).length - 1;
      int baseline = printed.split("\nBaseline step \\d+: start client", -1).length - 1;
      // The arm without the tunnel stops the tunnel's clients and moves only the underlay, twice as fast.
      double rate = printed.contains("Without the tunnel") ? 0
          : plateau ? Math.min(1e9, 0.5e9 * clients) : 0.5e9 * clients;
      double underlay = Math.min(2e9, 1e9 * baseline);
      long bytes = (long) (rate * (now - last) / 1e9);
      long ulBytes = (long) (underlay * (now - last) / 1e9);
      t.addCounter("wt0", "tx_bytes", bytes);
      t.addCounter("wt0", "tx_packets", bytes / 1250);
      t.addCounter("eth0", "tx_bytes", ulBytes);
      t.addCounter("eth0", "tx_packets", ulBytes / 1500);
      long ticks = Math.max(1, (now - last) / 10_000_000);
      for (int c = 0; c < 4; c++) {
        t.addCpuTicks(c, ticks / 2, 0, 0, 0, 0, 0, ticks - ticks / 2, 0);
      }
      last = now;
    }
  }
}
