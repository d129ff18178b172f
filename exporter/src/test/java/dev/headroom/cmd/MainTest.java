package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.FixtureTree;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void badFlagExitsTwoNamingIt() throws Exception {
    assertEquals(2, run("--sample.interval=soon"));
    assertTrue(err().contains("sample.interval") && err().contains("soon"), err());
  }

  @Test
  void unknownCommandExitsTwo() throws Exception {
    assertEquals(2, run("frobnicate"));
    assertTrue(err().contains("frobnicate"), err());
  }

  @Test
  void helpListsEveryFlag() throws Exception {
    assertEquals(0, run("--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--web.listen-address"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--underlay.line-rate"));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void eachCommandHasItsOwnHelp() throws Exception {
    assertEquals(0, run("size", "--help"));
    assertTrue(out().startsWith("usage: headroom size"), out());
    assertTrue(out().contains("--peers-per-network") && !out().contains("--tunnel.interface"), out());
    out.reset();
    assertEquals(0, run("serve", "--help"));
    assertTrue(out().startsWith("usage: headroom serve"), out());
    assertTrue(out().contains("--tunnel.interface") && out().contains("(default wt0)"), out());
    out.reset();
    assertEquals(0, run("help", "check"));
    assertTrue(out().startsWith("usage: headroom check"), out());
  }

  @Test
  void everyCommandAnswersVersion() throws Exception {
    for (String command : new String[] {"serve", "check", "profile", "size"}) {
      out.reset();
      assertEquals(0, run(command, "--version"));
      assertTrue(out().startsWith("headroom "), command + ": " + out());
    }
  }

  @Test
  void flagsBeforeAndAfterTheCommandWordCountAndTheLastWins() throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    assertEquals(0, run("--tunnel.interface=nope", "--sample.interval=100ms", "check", "--tunnel.interface=nope2",
        "--tunnel.interface", "wt0", "--path.sysfs=" + t.sys(), "--path.procfs=" + t.proc(),
        "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s", "--check.duration=300ms"));
    assertTrue(out().contains("Tunnel wt0"), out());
    out.reset();
    assertEquals(2, run("--sample.interval=10s", "check", "--sample.peak-window=5s"));
    assertTrue(err().contains("--sample.peak-window: '5s' is shorter than sample.interval 10s"), err());
  }

  @Test
  void aMistypedCommandIsNamedWithTheNearestOne() throws Exception {
    assertEquals(2, run("chek", "--tunnel.interface=wt0"));
    assertTrue(err().contains("unknown command 'chek'") && err().contains("did you mean 'check'"), err());
  }

  @Test
  void aMistypedFlagIsNamedWithTheNearestOneForEveryCommand() throws Exception {
    assertEquals(2, run("check", "--sample.intervall=2s"));
    assertTrue(err().contains("unknown flag '--sample.intervall'") && err().contains("did you mean '--sample.interval'"),
        err());
    err.reset();
    assertEquals(2, run("size", "--vcpu", "16"));
    assertTrue(err().contains("unknown flag '--vcpu'") && err().contains("did you mean '--vcpus'"), err());
  }

  @Test
  void aFlagWithoutItsValueIsNamed() throws Exception {
    assertEquals(2, run("serve", "--tunnel.interface"));
    assertTrue(err().contains("--tunnel.interface needs a value"), err());
  }

  @Test
  void checkWithoutTunnelExitsOneWithAClearMessage() throws Exception {
    FixtureTree t = FixtureTree.copy("notunnel", dir);
    assertEquals(1, run("check", "--path.sysfs=" + t.sys(), "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s",
        "--sample.interval=100ms", "--check.duration=300ms"));
    assertTrue(err().contains("no tunnel interface 'wt0'"), err());
    assertTrue(err().contains("verdict no_datapath"), "a missing tunnel is named as such, never as room: " + err());
  }

  @Test
  void checkPrintsTheReadingInWords() throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    assertEquals(0, run("check", "--path.sysfs=" + t.sys(), "--path.procfs=" + t.proc(), "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s",
        "--sample.interval=100ms", "--check.duration=300ms"));
    String o = out.toString(StandardCharsets.UTF_8);
    assertTrue(o.contains("kernel datapath"), o);
    assertTrue(o.contains("download"), o);
    assertTrue(o.contains("Underlay eth0"), o);
    assertTrue(java.util.regex.Pattern.compile("(room for [0-9.]+ Gbps more|no room for more) upload now").matcher(o)
        .find(), "the spare of each direction: " + o);
  }

  @Test
  void badWebConfigStopsTheStartNamingTheKey() throws Exception {
    Path web = dir.resolve("web.yml");
    java.nio.file.Files.writeString(web, "tls_server_config:\n  cert_file: missing.crt\n  key_file: missing.key\n");
    FixtureTree t = FixtureTree.copy("kernel", dir.resolve("tree"));
    assertEquals(2, run("--web.listen-address=127.0.0.1:0", "--web.config.file=" + web, "--path.sysfs=" + t.sys(),
        "--path.procfs=" + t.proc(), "--netbird.interval=0s"));
    assertTrue(err().contains("cert_file"), err());
  }

  @Test
  void portInUseIsAClearErrorNotAStackTrace() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      FixtureTree t = FixtureTree.copy("kernel", dir);
      assertEquals(1, run("--web.listen-address=127.0.0.1:" + taken.getLocalPort(), "--path.sysfs=" + t.sys(),
          "--path.procfs=" + t.proc()));
      assertTrue(err().contains("cannot serve on 127.0.0.1:" + taken.getLocalPort()), err());
    }
  }
}
