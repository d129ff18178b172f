package dev.headroom.judge;

import static dev.headroom.read.Datapath.ABSENT;
import static dev.headroom.read.Datapath.KERNEL;
import static dev.headroom.read.Datapath.USERSPACE;
import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.serve.Explainer;
import java.util.OptionalDouble;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ReferenceProfileTest {
  private static final OptionalDouble NO_NIC = OptionalDouble.empty();

  private static double gbps(Datapath dp, int cores, int mtu, OptionalDouble nic, Direction d) {
    return ReferenceProfile.ceiling(dp, cores, mtu, nic, d).gbps();
  }

  @ParameterizedTest(name = "kernel {0} cores: download {1}, upload {2} Gbps")
  @CsvSource({"1,2,2", "2,3,3", "4,7,4", "8,13,11", "16,20,15", "32,25,15", "64,31,15"})
  void everyKernelRowIsTheSizingGuideFigure(int cores, double down, double up) {
    assertEquals(down, gbps(KERNEL, cores, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertEquals(up, gbps(KERNEL, cores, 1280, NO_NIC, UPLOAD), 1e-9);
    Ceiling c = ReferenceProfile.ceiling(KERNEL, cores, 1280, NO_NIC, DOWNLOAD);
    assertEquals(CeilingSource.REFERENCE, c.source());
    assertEquals("reference: kernel WireGuard, " + cores + (cores == 1 ? " core" : " cores") + ", MTU 1280", Explainer.basis(c));
  }

  @ParameterizedTest(name = "netstack {0} cores: download {1}, upload {2} Gbps")
  @CsvSource({"1,0.8,0.7", "4,3.4,1.75", "16,3.4,1.85", "64,2.9,2.2"})
  void netstackIsHalfTheUserspaceRowUntilMeasuredAndSaysSo(int cores, double down, double up) {
    assertEquals(down, gbps(Datapath.NETSTACK, cores, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertEquals(up, gbps(Datapath.NETSTACK, cores, 1280, NO_NIC, UPLOAD), 1e-9);
    assertTrue(Explainer.basis(ReferenceProfile.ceiling(Datapath.NETSTACK, cores, 1280, NO_NIC, DOWNLOAD))
        .startsWith("reference: NetBird netstack, assumed 0.5 x userspace WireGuard (not measured)"));
    // Jumbo frames help it as they help wireguard-go; its plateau is half of wireguard-go's.
    assertEquals(down * 2.5, gbps(Datapath.NETSTACK, cores, 8920, NO_NIC, DOWNLOAD), 1e-9);
    assertEquals(3.4, ReferenceProfile.plateauGbps(Datapath.NETSTACK, DOWNLOAD), 1e-9);
    assertTrue(Datapath.NETSTACK.userspace() && Datapath.USERSPACE.userspace() && !KERNEL.userspace()
        && !ABSENT.userspace());
  }

  @ParameterizedTest(name = "userspace {0} cores: download {1}, upload {2} Gbps")
  @CsvSource({"1,1.6,1.4", "2,2.3,1.9", "4,6.8,3.5", "8,6.8,3.7", "16,6.8,3.7", "64,5.8,4.4"})
  void everyUserspaceRowIsTheSizingGuideFigure(int cores, double down, double up) {
    assertEquals(down, gbps(USERSPACE, cores, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertEquals(up, gbps(USERSPACE, cores, 1280, NO_NIC, UPLOAD), 1e-9);
    assertTrue(Explainer.basis(ReferenceProfile.ceiling(USERSPACE, cores, 1280, NO_NIC, UPLOAD))
        .startsWith("reference: userspace WireGuard"));
  }

  @ParameterizedTest(name = "{0} {1} cores {2}: {3} Gbps")
  @CsvSource({
      "KERNEL,12,DOWNLOAD,16.5", "KERNEL,12,UPLOAD,13", "KERNEL,48,DOWNLOAD,28", "KERNEL,3,DOWNLOAD,5",
      "KERNEL,6,UPLOAD,7.5", "USERSPACE,3,DOWNLOAD,4.55", "USERSPACE,40,DOWNLOAD,6.3", "USERSPACE,40,UPLOAD,4.05"})
  void betweenRowsTheFigureIsInterpolatedLinearly(Datapath dp, int cores, Direction d, double expected) {
    assertEquals(expected, gbps(dp, cores, 1280, NO_NIC, d), 1e-9);
    assertTrue(Explainer.basis(ReferenceProfile.ceiling(dp, cores, 1280, NO_NIC, d)).contains("interpolated between"));
  }

  @ParameterizedTest(name = "{0} {1} at {2} cores: {3} first cores' worth")
  @CsvSource({
      // The table's figure over its one-core figure: 16 cores of the reference did 10 first cores' work.
      "KERNEL, DOWNLOAD, 16, 10", "KERNEL, DOWNLOAD, 32, 12.5", "KERNEL, DOWNLOAD, 64, 15.5",
      "KERNEL, DOWNLOAD, 8, 6.5", "KERNEL, DOWNLOAD, 4, 3.5",
      // Upload's knee is in the shape: flat at 7.5 from 16 on.
      "KERNEL, UPLOAD, 16, 7.5", "KERNEL, UPLOAD, 64, 7.5", "KERNEL, UPLOAD, 8, 5.5",
      // Up to two kernel cores each does the first's work (the table's 2-core row is within its scatter).
      "KERNEL, DOWNLOAD, 2, 2", "KERNEL, UPLOAD, 2, 2", "KERNEL, UPLOAD, 4, 2", "KERNEL, DOWNLOAD, 1, 1",
      "KERNEL, DOWNLOAD, 0.5, 0.5",
      // wireguard-go keeps a few cores busy: never more than the cores, 4.25 first cores' worth at its plateau.
      "USERSPACE, DOWNLOAD, 4, 4", "USERSPACE, DOWNLOAD, 16, 4.25", "USERSPACE, UPLOAD, 2, 1.357142857",
      "NETSTACK, DOWNLOAD, 16, 4.25"})
  void effectiveCoresAreTheTablesFigureOverItsFirstCore(Datapath dp, Direction d, double cores, double expected) {
    assertEquals(expected, ReferenceProfile.effectiveCores(dp, cores, d), 1e-6);
  }

  @Test
  void theKneeIsOneRulePerDatapath() {
    assertTrue(ReferenceProfile.pastKnee(KERNEL, 16) && !ReferenceProfile.pastKnee(KERNEL, 15.9));
    assertTrue(ReferenceProfile.pastKnee(USERSPACE, 4) && !ReferenceProfile.pastKnee(USERSPACE, 3));
    assertTrue(ReferenceProfile.pastKnee(Datapath.NETSTACK, 4));
  }

  @Test
  void outsideTheTableTheFigureIsClamped() {
    assertEquals(2, gbps(KERNEL, 0, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertEquals(31, gbps(KERNEL, 128, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertEquals(15, gbps(KERNEL, 96, 1280, NO_NIC, UPLOAD), 1e-9);
    assertEquals(5.8, gbps(USERSPACE, 256, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertTrue(Explainer.basis(ReferenceProfile.ceiling(KERNEL, 128, 1280, NO_NIC, DOWNLOAD)).contains("table ends at 64"));
    assertTrue(Explainer.basis(ReferenceProfile.ceiling(KERNEL, 0, 1280, NO_NIC, DOWNLOAD)).contains("cores unknown"));
  }

  @Test
  void userspacePlateausFromFourCoresWhileKernelKeepsRising() {
    assertEquals(gbps(USERSPACE, 4, 1280, NO_NIC, DOWNLOAD), gbps(USERSPACE, 16, 1280, NO_NIC, DOWNLOAD), 1e-9);
    assertTrue(gbps(USERSPACE, 64, 1280, NO_NIC, DOWNLOAD) < gbps(USERSPACE, 16, 1280, NO_NIC, DOWNLOAD));
    assertTrue(gbps(KERNEL, 16, 1280, NO_NIC, DOWNLOAD) > 2.5 * gbps(USERSPACE, 16, 1280, NO_NIC, DOWNLOAD));
    assertEquals(6.8, ReferenceProfile.userspacePlateauGbps(DOWNLOAD), 1e-9);
    assertEquals(4.4, ReferenceProfile.userspacePlateauGbps(UPLOAD), 1e-9);
    assertEquals(4, ReferenceProfile.userspaceUsableCores(16), 1e-9);
    assertEquals(3, ReferenceProfile.userspaceUsableCores(4), 1e-9);
  }

  @ParameterizedTest(name = "jumbo {0} {1} {2}: {3} Gbps")
  @CsvSource({
      "KERNEL,8920,DOWNLOAD,95", "KERNEL,8920,UPLOAD,66", "KERNEL,9000,UPLOAD,66",
      "KERNEL,5100,DOWNLOAD,63", "KERNEL,5100,UPLOAD,40.5", "USERSPACE,8920,DOWNLOAD,14.5",
      "KERNEL,1000,DOWNLOAD,31"})
  void jumboTunnelMtuScalesTheFigureAt64Cores(Datapath dp, int mtu, Direction d, double expected) {
    assertEquals(expected, gbps(dp, 64, mtu, NO_NIC, d), 1e-9);
  }

  @Test
  void aMidwayJumboMtuSaysItsFactorIsInterpolated() {
    String basis = Explainer.basis(ReferenceProfile.ceiling(KERNEL, 64, 5100, NO_NIC, DOWNLOAD));
    assertTrue(basis.contains("interpolated between MTU 1280 and 8920"), basis);
    assertEquals(1.0, ReferenceProfile.jumboFactor(KERNEL, 1280, DOWNLOAD));
  }

  @Test
  void theNicLineRateCapsTheCeilingInInnerBytes() {
    // 10 Gbps NIC on a 16-core kernel peer (20 Gbps): 1.25e9 B/s x 1280 / 1354 inner bytes.
    Ceiling c = ReferenceProfile.ceiling(KERNEL, 16, 1280, OptionalDouble.of(1.25e9), DOWNLOAD);
    assertEquals(1.25e9 * 1280 / 1354, c.bytesPerSecond(), 1e-3);
    assertEquals("reference: kernel WireGuard, 16 cores, MTU 1280, capped by 10 Gbps NIC", Explainer.basis(c));
    // A NIC faster than the CPU does not change it.
    Ceiling big = ReferenceProfile.ceiling(KERNEL, 16, 1280, OptionalDouble.of(12.5e9), DOWNLOAD);
    assertEquals(20, big.gbps(), 1e-9);
    assertTrue(!Explainer.basis(big).contains("capped"));
    // Jumbo: the cap uses the tunnel MTU, so the 74-byte overhead weighs less (25 Gbps NIC, 95 Gbps figure).
    Ceiling jumbo = ReferenceProfile.ceiling(KERNEL, 64, 8920, OptionalDouble.of(25 * Units.BYTES_PER_GBPS), DOWNLOAD);
    assertEquals(25.0 * 8920 / 8994, jumbo.gbps(), 1e-6);
  }

  @Test
  void anAbsentDatapathReadsTheKernelTableAndSaysSo() {
    Ceiling c = ReferenceProfile.ceiling(ABSENT, 8, 1280, NO_NIC, DOWNLOAD);
    assertEquals(13, c.gbps(), 1e-9);
    assertTrue(Explainer.basis(c).contains("assumed"), Explainer.basis(c));
  }

  @Test
  void interfaceColumnIsTheSmallestNicThatDoesNotCap() {
    assertEquals(25, ReferenceProfile.interfaceGbps(16), 1e-9);
    assertEquals(2.5, ReferenceProfile.interfaceGbps(1), 1e-9);
    assertEquals(100, ReferenceProfile.interfaceGbps(64), 1e-9);
  }
}
