package dev.headroom.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.cmd.ServeCommand;
import dev.headroom.config.Config;
import dev.headroom.config.ConfigParser;
import dev.headroom.json.Json;
import dev.headroom.testing.Scrape;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sizing guide's situations replayed through the real daemon: a fixture peer of the situation's shape whose
 * counters move under the situation's load ({@link ReplayPeer}), the daemon sampling it as it would a live peer,
 * and the verdict, cause, advice and its ground read back from {@code /api/v1/status} and {@code /metrics}.
 * docs/verdict.md lists each situation beside what the guide says.
 */
class GuideSituationsReplayTest {
  @TempDir Path dir;
  private ServeCommand.Running running;
  private ReplayPeer peer;

  @AfterEach
  void stop() throws Exception {
    if (running != null) {
      running.close();
    }
    if (peer != null) {
      peer.close();
    }
  }

  private static double[] busy(int cores, double rest, int hot, double hotBusy) {
    double[] b = ReplayPeer.busy(cores, rest);
    for (int i = 0; i < hot; i++) {
      b[i] = hotBusy;
    }
    return b;
  }

  /** What the daemon should settle on: verdict and cause per direction, and "advice/direction/ground" items. */
  private record Expect(String down, String downCause, String up, String upCause, Set<String> advice) {
    static Expect of(String down, String downCause, String up, String upCause, String... advice) {
      return new Expect(down, downCause, up, upCause, new TreeSet<>(List.of(advice)));
    }
  }

  /** The settled reading, from one status document. */
  private record Seen(String down, String downCause, String up, String upCause, Set<String> advice,
      List<String> adviceOrder, Map<String, Object> status) {
    Expect asExpect() {
      return new Expect(down, downCause, up, upCause, advice);
    }

    @SuppressWarnings("unchecked")
    double number(String... path) {
      Object v = status;
      for (String p : path) {
        v = ((Map<String, Object>) v).get(p);
      }
      return ((Number) v).doubleValue();
    }

    @SuppressWarnings("unchecked")
    String text(String... path) {
      Object v = status;
      for (String p : path) {
        v = ((Map<String, Object>) v).get(p);
      }
      return (String) v;
    }
  }

  @SuppressWarnings("unchecked")
  private Seen read(int port) {
    Map<String, Object> s = Json.tree(Scrape.get(port, "/api/v1/status").body());
    Map<String, Object> v = (Map<String, Object>) s.get("verdict");
    if (v == null) {
      return null;
    }
    Map<String, Object> d = (Map<String, Object>) v.get("download");
    Map<String, Object> u = (Map<String, Object>) v.get("upload");
    List<String> order = new ArrayList<>();
    for (Object o : (List<Object>) v.get("advice")) {
      Map<String, Object> a = (Map<String, Object>) o;
      order.add(a.get("advice") + "/" + (a.get("direction") == null ? "both" : a.get("direction")) + "/"
          + a.get("ground"));
    }
    return new Seen((String) d.get("verdict"), (String) d.get("cause"), (String) u.get("verdict"),
        (String) u.get("cause"), new TreeSet<>(order), order, s);
  }

  /** Starts the daemon on the peer, waits for the expected reading, and checks it holds and /metrics agrees. */
  private Seen replay(ReplayPeer.Load load, Expect expect, String... flags) throws Exception {
    peer.start(load);
    List<String> args = new ArrayList<>(List.of(
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + peer.tree().sys(), "--path.procfs=" + peer.tree().proc(),
        "--path.cgroupfs=" + peer.cgroup(), "--sample.interval=1s", "--path.rundir=" + dir.resolve("run"),
        "--netbird.interval=0s", "--census.interval=0s", "--profile.file=" + dir.resolve("none.properties")));
    args.addAll(List.of(flags));
    Config config = ConfigParser.parse(args.toArray(String[]::new)).config();
    running = ServeCommand.start(config, ServeCommand.webConfig(config), () -> {}, peer.clock());
    int port = running.server().port();
    AtomicReference<Seen> last = new AtomicReference<>();
    try {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
        Seen s = read(port);
        last.set(s);
        return s != null && s.asExpect().equals(expect);
      });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("expected " + expect + "\nlast seen " + (last.get() == null ? "nothing"
          : last.get().asExpect() + "\n" + last.get().status), e);
    }
    // Held for four more samples (the latch exits below 0.8 of a level, so noise cannot release it): a settled verdict, not one that passed through.
    for (int i = 0; i < 4; i++) {
      sleep(1000);
      Seen again = read(port);
      assertEquals(expect, again.asExpect(), "the reading did not hold: " + again.status);
    }
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(1.0, m.get("headroom_verdict{direction=\"download\",verdict=\"" + expect.down() + "\"}"));
    assertEquals(1.0, m.get("headroom_verdict{direction=\"upload\",verdict=\"" + expect.up() + "\"}"));
    for (String a : expect.advice()) {
      assertEquals(1.0, m.get("headroom_advice{advice=\"" + a.split("/")[0] + "\"}"), a);
    }
    return read(port);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void sixteenCoreKernelPeerFillingTenGigabitDownloadIsLinkBoundAndWantsABiggerInterface() throws Exception {
    peer = ReplayPeer.kernel(16).line(10_000, 1500);
    // 9.5 Gbps on the wire: the tunnel's 8.98 Gbps plus its headers.
    Seen s = replay(ReplayPeer.Load.tunnel(8.98, 0.2, 1280, ReplayPeer.busy(16, 0.35), 5),
        Expect.of("link_bound", "link_full", "headroom", "room", "bigger_interface/download/link_full_cpu_room"));
    assertEquals(10.0 * 1280 / 1354, s.number("verdict", "download", "ceiling_gbps"), 0.01, "the NIC caps the ceiling");
  }

  @Test
  void thirtyTwoCoreKernelPeerAtFourteenAndAHalfGbpsUploadWithEightBusyCoresIsBoundAtTheKneeAndScalesOut() throws Exception {
    peer = ReplayPeer.kernel(32).line(100_000, 1500);
    Seen s = replay(ReplayPeer.Load.tunnel(0.4, 14.5, 1280, busy(32, 0.04, 8, 0.97), 7.5),
        Expect.of("headroom", "room", "cpu_bound", "at_ceiling", "scale_out/upload/past_knee"));
    assertEquals(15.0, s.number("verdict", "upload", "ceiling_gbps"), 1e-9, "the 32-core reference upload");
    assertTrue(s.number("verdict", "upload", "utilization") >= 0.8, s.status().toString());
    // Decryption stops spreading but encryption does not: upload's spare is its own ceiling's, download keeps the idle cores'.
    assertEquals("ceiling", s.text("verdict", "upload", "spare_bound"));
    // Taken over the last few samples (a steady spare), so within a few percent of this sample's rate's.
    assertEquals(15.0 - s.number("tunnel", "upload", "gbps"), s.number("verdict", "upload", "spare_gbps"), 0.05,
        s.status().toString());
    assertTrue(s.number("verdict", "download", "spare_gbps") > 15, s.status().toString());
  }

  @Test
  void fourCoreUserspacePeerAtSixAndAHalfGbpsEnablesKernelWireguardThenScalesOut() throws Exception {
    peer = ReplayPeer.userspace(4).line(25_000, 1500);
    Seen s = replay(ReplayPeer.Load.tunnel(6.5, 0.2, 1280, new double[] {0.99, 0.55, 0.45, 0.3}, 2.2),
        Expect.of("cpu_bound", "at_ceiling", "cpu_bound", "cpu_shared",
            "enable_kernel_wireguard/download/userspace_bound", "scale_out/download/userspace_bound"));
    assertEquals(List.of("enable_kernel_wireguard/download/userspace_bound", "scale_out/download/userspace_bound"),
        s.adviceOrder(), "kernel WireGuard first, then another peer");
    assertEquals(6.8, s.number("verdict", "download", "ceiling_gbps"), 1e-9, "the userspace plateau");
  }

  @Test
  void twoCoreMiniPcOnGigabitFullBothWaysIsLinkBoundBothWaysWithNoCpuAdvice() throws Exception {
    peer = ReplayPeer.kernel(2).line(1_000, 1500);
    replay(ReplayPeer.Load.tunnel(0.895, 0.895, 1280, ReplayPeer.busy(2, 0.5), 0.9),
        Expect.of("link_bound", "link_full", "link_bound", "link_full", "bigger_interface/both/link_full_cpu_room"));
  }

  @Test
  void oneHeavyClientOnThirtyTwoCoresHoldsDownloadToOneTunnelButNotUpload() throws Exception {
    peer = ReplayPeer.kernel(32).line(25_000, 1500);
    replay(ReplayPeer.Load.tunnel(3.0, 0.08, 1280, busy(32, 0.02, 1, 0.99), 0.97),
        Expect.of("single_tunnel_bound", "one_tunnel_core", "headroom", "room", "none/both/one_tunnel"));
  }

  @Test
  void awsJumboUnderlayServingInternetClientsIsNotToldToRaiseTheMtu() throws Exception {
    peer = ReplayPeer.kernel(8).line(25_000, 9001);
    replay(ReplayPeer.Load.tunnel(12, 0.3, 1280, ReplayPeer.busy(8, 0.96), 7.4),
        Expect.of("cpu_bound", "cores_saturated", "cpu_bound", "cpu_shared", "scale_up/download/below_knee"));
  }

  @Test
  void theSamePeerOnAPathThatCarriesJumboEndToEndIsToldToRaiseTheMtu() throws Exception {
    peer = ReplayPeer.kernel(8).line(25_000, 9001);
    replay(ReplayPeer.Load.tunnel(12, 0.3, 1280, ReplayPeer.busy(8, 0.96), 7.4),
        Expect.of("cpu_bound", "cores_saturated", "cpu_bound", "cpu_shared", "scale_up/download/below_knee",
            "raise_mtu/both/jumbo_path"),
        "--underlay.jumbo-path=true");
  }

  /**
   * The UAPI reply of a userspace peer whose tunnels move at the given download Gbps each (upload a tenth), with
   * these endpoints and a handshake a few seconds old, as wireguard-go answers {@code get=1}.
   */
  private static java.util.function.Supplier<String> tunnels(double[] downGbps, String... endpoints) {
    long t0 = System.nanoTime();
    return () -> {
      double s = (System.nanoTime() - t0) / 1e9;
      long now = System.currentTimeMillis() / 1000;
      StringBuilder b = new StringBuilder("private_key=" + "a".repeat(64) + "\nlisten_port=51820\n");
      for (int i = 0; i < endpoints.length; i++) {
        long tx = (long) (downGbps[i] * 1e9 / 8 * s);
        b.append("public_key=").append(String.format("%064x", i + 1)).append('\n')
            .append("endpoint=").append(endpoints[i]).append('\n')
            .append("last_handshake_time_sec=").append(now - 5).append("\nlast_handshake_time_nsec=0\n")
            .append("tx_bytes=").append(tx).append("\nrx_bytes=").append(tx / 10).append('\n')
            .append("persistent_keepalive_interval=25\nallowed_ip=10.99.").append(i).append(".2/32\n");
      }
      return b.append("errno=0\n").toString();
    };
  }

  @Test
  void userspacePeerAtItsPlateauWithEveryUserOnAPrivateJumboPathIsToldToRaiseTheMtu() throws Exception {
    peer = ReplayPeer.userspace(4).line(25_000, 9001);
    try (var sock = dev.headroom.testing.FakeUapiSocket.start(dir.resolve("run"), "wt0",
        tunnels(new double[] {3.25, 3.25}, "10.0.0.2:51820", "10.0.0.3:51820"))) {
      replay(ReplayPeer.Load.tunnel(6.5, 0.65, 1280, new double[] {0.99, 0.55, 0.45, 0.3}, 2.2),
          Expect.of("cpu_bound", "at_ceiling", "cpu_bound", "cpu_shared",
              "enable_kernel_wireguard/download/userspace_bound", "scale_out/download/userspace_bound",
              "raise_mtu/both/jumbo_path"),
          "--census.interval=500ms");
    }
  }

  @Test
  void theSamePeerWithOneUserAcrossTheInternetKeepsTheDefaultMtu() throws Exception {
    peer = ReplayPeer.userspace(4).line(25_000, 9001);
    try (var sock = dev.headroom.testing.FakeUapiSocket.start(dir.resolve("run"), "wt0",
        tunnels(new double[] {3.25, 3.25}, "10.0.0.2:51820", "3.120.4.5:51820"))) {
      replay(ReplayPeer.Load.tunnel(6.5, 0.65, 1280, new double[] {0.99, 0.55, 0.45, 0.3}, 2.2),
          Expect.of("cpu_bound", "at_ceiling", "cpu_bound", "cpu_shared",
              "enable_kernel_wireguard/download/userspace_bound", "scale_out/download/userspace_bound"),
          "--census.interval=500ms");
    }
  }

  @Test
  void aTunnelAtTheCloudsSingleFlowCapIsSingleTunnelBound() throws Exception {
    peer = ReplayPeer.userspace(8).line(25_000, 1500);
    try (var sock = dev.headroom.testing.FakeUapiSocket.start(dir.resolve("run"), "wt0",
        tunnels(new double[] {1.95, 0.5, 0.5}, "3.1.1.1:51820", "3.1.1.2:51820", "3.1.1.3:51820"))) {
      replay(ReplayPeer.Load.tunnel(2.95, 0.295, 1280, ReplayPeer.busy(8, 0.15), 1.2),
          Expect.of("single_tunnel_bound", "flow_cap", "headroom", "room", "none/both/one_tunnel"),
          "--census.interval=500ms", "--underlay.flow-cap=2gbit");
    }
  }

  @Test
  void sixtyFourCoresAtJumboMtuFillingOneHundredGigabitIsLinkBoundAndScalesOut() throws Exception {
    peer = ReplayPeer.kernel(64).line(100_000, 9001).tunnelMtu(8920);
    Seen s = replay(ReplayPeer.Load.tunnel(90, 1.5, 8920, ReplayPeer.busy(64, 0.6), 34),
        Expect.of("link_bound", "link_full", "headroom", "room", "scale_out/download/largest_nic"));
    assertEquals(95.0, s.number("verdict", "download", "ceiling_gbps"), 0.01, "31 Gbps x 95/31 at MTU 8920");
  }

  @Test
  void aTwoAndAHalfCoreCgroupQuotaIsTheCoresTheCeilingAndSaturationUse() throws Exception {
    peer = ReplayPeer.kernel(8).line(25_000, 1500).cpuMax("250000 100000");
    // 2.4 busy cores of 8 online: 30 % on average, but 96 % of the 2.5 cores the quota allows.
    Seen s = replay(ReplayPeer.Load.tunnel(3, 0.1, 1280, ReplayPeer.busy(8, 0.3), 2.2),
        Expect.of("cpu_bound", "cores_saturated", "cpu_bound", "cpu_shared", "scale_up/download/below_knee"));
    assertEquals(2.5, s.number("cpu", "quota_cores"), 1e-9);
    assertEquals(2.5, s.number("verdict", "usable_cores"), 1e-9);
    assertEquals(4.0, s.number("verdict", "download", "ceiling_gbps"), 1e-9, "the table between 2 and 4 cores");
  }

  @Test
  void fourCoreKernelPeerCarryingDownloadAndUploadOnASaturatedCpuHasNoRoomEitherWay() throws Exception {
    peer = ReplayPeer.kernel(4).line(10_000, 1500);
    // 3.8 of 4 cores busy: 6.6 Gbps download and 0.93 Gbps upload, 6.6/7 + 0.93/4 = 1.18 of one CPU.
    Seen s = replay(ReplayPeer.Load.tunnel(6.6, 0.93, 1280, ReplayPeer.busy(4, 0.95), 3.0),
        Expect.of("cpu_bound", "cores_saturated", "cpu_bound", "cpu_shared", "scale_up/download/below_knee"));
    for (String d : List.of("download", "upload")) {
      double ceiling = s.number("verdict", d, "ceiling_bytes_per_second");
      assertTrue(s.number("verdict", d, "spare_bytes_per_second") < 0.05 * ceiling, d + ": " + s.status());
      assertEquals("cpu", s.text("verdict", d, "spare_bound"), d);
    }
    Map<String, Double> m = Scrape.metrics(running.server().port());
    assertTrue(m.get("headroom_spare_bytes_per_second{direction=\"upload\"}") < 0.05 * 4e9 / 8, m.toString());
    assertEquals(0.0, m.get("headroom_verdict{direction=\"upload\",verdict=\"headroom\"}"));
  }

  @Test
  void sixteenCorePeerAThirdBusyHasRoomBothWaysAndTheSpareTheModelGives() throws Exception {
    peer = ReplayPeer.kernel(16).line(25_000, 1500);
    // A third of the 20 Gbps download and a quarter of the 15 Gbps upload ceiling: 7/12 of the CPU in use.
    Seen s = replay(ReplayPeer.Load.tunnel(20.0 / 3, 3.75, 1280, ReplayPeer.busy(16, 1.0 / 3), 2),
        Expect.of("headroom", "room", "headroom", "room", "none/both/room"));
    assertEquals(20.0, s.number("verdict", "download", "ceiling_gbps"), 1e-9);
    assertEquals(15.0, s.number("verdict", "upload", "ceiling_gbps"), 1e-9);
    // The model on the rates this sample measured (the spare is held over the last few samples: within a hundredth),
    // and on the situation's own figures within rate noise.
    double down = s.number("tunnel", "download", "gbps");
    double up = s.number("tunnel", "upload", "gbps");
    double left = 1 - down / 20 - up / 15;
    assertEquals(left * 20, s.number("verdict", "download", "spare_gbps"), 0.01 * left * 20, s.status().toString());
    assertEquals(left * 15, s.number("verdict", "upload", "spare_gbps"), 0.01 * left * 15, s.status().toString());
    // Within a tenth: a loaded test machine paces the fixture's counters a few percent slow.
    assertEquals(20 * 5.0 / 12, s.number("verdict", "download", "spare_gbps"), 0.1 * 20 * 5.0 / 12,
        "~8.3 Gbps more download");
    assertEquals(15 * 5.0 / 12, s.number("verdict", "upload", "spare_gbps"), 0.1 * 15 * 5.0 / 12,
        "~6.25 Gbps more upload");
    Map<String, Double> m = Scrape.metrics(running.server().port());
    assertEquals(20 * 5.0 / 12, m.get("headroom_spare_bytes_per_second{direction=\"download\"}") * 8 / 1e9,
        0.1 * 20 * 5.0 / 12);
  }

  @Test
  void aPeerWithoutATunnelReadsNoDatapathNotHeadroomWhateverItsCpuDoes() throws Exception {
    peer = ReplayPeer.kernel(4).line(10_000, 1500).withoutTunnel();
    Seen s = replay(ReplayPeer.Load.tunnel(0, 0, 1280, ReplayPeer.busy(4, 0.97), 0),
        Expect.of("no_datapath", "no_datapath", "no_datapath", "no_datapath", "none/both/no_datapath"));
    Map<String, Double> m = Scrape.metrics(running.server().port());
    assertEquals(0.0, m.get("headroom_verdict{direction=\"download\",verdict=\"headroom\"}"));
    assertEquals(0.0, m.get("headroom_verdict{direction=\"upload\",verdict=\"cpu_bound\"}"));
    assertEquals(null, m.get("headroom_spare_bytes_per_second{direction=\"download\"}"), "no spare is claimed");
    assertEquals("No tunnel datapath", s.text("verdict", "upload", "verdict_words"));
  }
}
