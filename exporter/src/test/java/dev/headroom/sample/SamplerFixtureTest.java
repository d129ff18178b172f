package dev.headroom.sample;

import dev.headroom.config.Config;
import dev.headroom.config.TestConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real readers and sampler driven over fixture trees, with a clock the test moves. */
class SamplerFixtureTest {
  @TempDir Path dir;
  private final FakeClock clock = new FakeClock();

  private Sampler sampler(FixtureTree t, OptionalDouble lineRate) {
    Config s = lineRate.isPresent()
        ? TestConfig.fixture(t.sys(), t.proc(), "--underlay.line-rate=" + (long) (lineRate.getAsDouble() * 8) + "bit")
        : TestConfig.fixture(t.sys(), t.proc());
    return new Sampler(s, new ProcStatCpuSource(t.sys(), t.proc()), clock, () -> 1_764_460_800_000L,
        Runnable::run, null);
  }

  @Test
  void theCgroupCpuQuotaIsASourceReadEveryTenSecondsAndABadCpuMaxIsCountedWhileSamplingContinues() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Path cgroup = t.sys().resolve("fs/cgroup");
    t.write(cgroup.resolve("cpu.max"), "250000 100000\n");
    Config settings = TestConfig.fixture(t.sys(), t.proc(), "--path.cgroupfs=" + cgroup);
    Sampler s = new Sampler(settings, new ProcStatCpuSource(t.sys(), t.proc()), clock, () -> 1_764_460_800_000L,
        Runnable::run, null);
    Sample first = s.sample();
    assertEquals(2.5, first.cpuQuotaCores(), 1e-12);
    assertEquals(new SourceHealth(true, 0, ""), first.source(CpuQuotaCollector.SOURCE));

    // An operator's typo; the quota is re-read only every 10 s, so the next samples still hold 2.5 cores.
    t.write(cgroup.resolve("cpu.max"), "2.5 cores\n");
    t.traffic("wt0", 250_000_000, 200_000, 50_000_000, 100_000);
    clock.advanceSeconds(1);
    Sample soon = s.sample();
    assertEquals(2.5, soon.cpuQuotaCores(), 1e-12);
    assertTrue(soon.source(CpuQuotaCollector.SOURCE).up());

    t.traffic("wt0", 250_000_000, 200_000, 50_000_000, 100_000);
    clock.advanceSeconds(9);
    Sample bad = s.sample();
    assertTrue(Double.isNaN(bad.cpuQuotaCores()), "a bad cpu.max is read as no quota");
    SourceHealth h = bad.source(CpuQuotaCollector.SOURCE);
    assertFalse(h.up());
    assertEquals(1, h.errors());
    assertTrue(h.lastError().contains("cpu.max") && h.lastError().contains("2.5 cores"), h.lastError());
    // The rest of the pass was sampled as ever.
    assertTrue(bad.tunnelUp());
    assertEquals(250_000_000 / 9.0, bad.throughput(Direction.DOWNLOAD), 1e-6);

    // Held until the next re-read: one error per bad read, not one per sample.
    clock.advanceSeconds(1);
    assertEquals(1, s.sample().source(CpuQuotaCollector.SOURCE).errors());
    t.write(cgroup.resolve("cpu.max"), "max 100000\n");
    clock.advanceSeconds(9);
    Sample none = s.sample();
    assertTrue(Double.isNaN(none.cpuQuotaCores()), "max: no quota");
    assertEquals(new SourceHealth(true, 1, h.lastError()), none.source(CpuQuotaCollector.SOURCE));
  }

  @Test
  void withoutACgroupRootThereIsNoQuotaSource() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sample x = sampler(t, OptionalDouble.empty()).sample();
    assertNull(x.source(CpuQuotaCollector.SOURCE));
    assertTrue(Double.isNaN(x.cpuQuotaCores()));
  }

  @Test
  void downloadIsTunnelTransmitAndUploadIsReceive() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    assertFalse(s.sample().complete());
    t.traffic("wt0", 250_000_000, 200_000, 50_000_000, 100_000);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertTrue(x.complete());
    assertEquals(250_000_000, x.throughput(Direction.DOWNLOAD), 1e-6);
    assertEquals(50_000_000, x.throughput(Direction.UPLOAD), 1e-6);
    assertEquals(1250, x.meanPacketSize(Direction.DOWNLOAD), 1e-9);
    assertEquals(500, x.meanPacketSize(Direction.UPLOAD), 1e-9);
  }

  @Test
  void underlayIsTheDefaultRouteNicAndItsSpeedIsTheLineRate() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.traffic("eth0", 625_000_000, 500_000, 125_000_000, 100_000);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals("eth0", x.underlay().name());
    assertEquals("sysfs", x.lineRateSource());
    assertEquals(1.25e9, x.lineRateBytesPerSecond(), 1);
    assertEquals(0.5, x.underlayUtilization(Direction.DOWNLOAD), 1e-9);
    assertEquals(0.1, x.underlayUtilization(Direction.UPLOAD), 1e-9);
  }

  @Test
  void configuredLineRateBeatsSysfs() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.of(25_000_000));
    s.sample();
    t.traffic("eth0", 25_000_000, 20_000, 0, 0);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals("config", x.lineRateSource());
    assertEquals(1.0, x.underlayUtilization(Direction.DOWNLOAD), 1e-9);
  }

  @Test
  void datapathIsDetectedForEachTree() {
    assertEquals(Datapath.KERNEL, sampler(FixtureTree.copy("kernel", dir.resolve("k")), OptionalDouble.empty()).sample().datapath());
    assertEquals(Datapath.USERSPACE, sampler(FixtureTree.copy("userspace", dir.resolve("u")), OptionalDouble.empty()).sample().datapath());
    assertEquals(Datapath.ABSENT, sampler(FixtureTree.copy("notunnel", dir.resolve("n")), OptionalDouble.empty()).sample().datapath());
  }

  @Test
  void userspaceDatapathCpuIsTheProcessHoldingTheTun() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    // netbird (pid 4242) holds wt0; wireguard-go (4300) holds another TUN and must not count.
    bumpProcess(t, 4242, 60, 15); // 0.75 s of CPU in ticks
    bumpProcess(t, 4300, 500, 500);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals(0.75, x.datapathCores(), 1e-9);
    assertTrue(x.datapathDescription().contains("4242"), x.datapathDescription());
  }

  @Test
  void kernelDatapathCpuIsItsThreadsPlusSoftirq() {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    bumpProcess(t, 311, 0, 20);  // napi/wt0-0: 0.2 s
    bumpProcess(t, 312, 0, 30);  // wg-crypt-wt0 kworker: 0.3 s
    t.addCpuTicks(0, 0, 0, 0, 50, 0, 0, 50, 0); // 0.5 s softirq on cpu0
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals(1.0, x.datapathCores(), 1e-9);
  }

  @Test
  void coresWhoseTicksDidNotMoveLeaveTheDatapathsCoresUnknownNotIdle() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    t.write(t.proc().resolve("4242/status"), "Name:\tnetbird\nPid:\t4242\nCpus_allowed_list:\t0-3\n");
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    for (int c = 0; c < 4; c++) {
      t.addCpuTicks(c, 100, 0, 0, 0, 0, 0, 0, 0);
    }
    clock.advanceSeconds(1);
    assertEquals(1.0, s.sample().datapathAllowedBusy(), 1e-9);
    // A second in which /proc/stat did not move (a stalled writer, a frozen guest): no interval, not 0 % busy.
    clock.advanceSeconds(1);
    assertTrue(Double.isNaN(s.sample().datapathAllowedBusy()));
  }

  @Test
  void busyRatioHottestAndSaturatedCores() {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.addCpuTicks(0, 30, 0, 20, 0, 0, 0, 50, 0);   // 100% busy, half in softirq
    t.addCpuTicks(1, 10, 0, 0, 90, 0, 0, 0, 0);    // 10%
    t.addCpuTicks(2, 0, 0, 0, 80, 20, 0, 0, 0);    // iowait is not busy
    t.addCpuTicks(3, 45, 0, 0, 5, 0, 0, 0, 50);    // 95% with steal
    t.traffic("wt0", 1_000_000_000, 800_000, 0, 0);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals(List.of(1.0, 0.1, 0.0, 0.95), x.cores().stream().map(Core::busy).toList());
    assertEquals(0, x.hottestCore().cpu());
    assertEquals(2, x.saturatedCores(0.9));
    // 0.85 s user, 0.2 s system, 0.5 s softirq for 1 GB.
    assertEquals(0.85, x.cpuPerGigabyte().user(), 1e-9);
    assertEquals(0.2, x.cpuPerGigabyte().system(), 1e-9);
    assertEquals(0.5, x.cpuPerGigabyte().softirq(), 1e-9);
  }

  @Test
  void cpuPerGigabyteIsAbsentWhenTheTunnelIsIdle() {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.addCpuTicks(0, 50, 0, 0, 50, 0, 0, 0, 0);
    clock.advanceSeconds(1);
    assertNull(s.sample().cpuPerGigabyte());
  }

  @Test
  void offlineCoreIsKeyedByRealIdAndComesBackWithoutASpike() {
    FixtureTree t = FixtureTree.copy("offline-cpu", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.addCpuTicks(3, 100, 0, 0, 0, 0, 0, 0, 0);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals(List.of(0, 1, 3), x.cores().stream().filter(Core::online).map(Core::cpu).toList());
    assertEquals(1.0, x.cores().stream().filter(c -> c.cpu() == 3).findFirst().orElseThrow().busy());
    assertEquals(3, x.onlineCores());

    // cpu3 goes offline: it is reported offline, the others keep their ids.
    t.setOffline(3, "0-1");
    clock.advanceSeconds(1);
    x = s.sample();
    assertEquals(List.of(0, 1), x.cores().stream().filter(Core::online).map(Core::cpu).toList());
    assertFalse(x.cores().stream().filter(c -> c.cpu() == 3).findFirst().orElseThrow().online());

    // cpu2 and cpu3 come back with large since-boot times: first interval is a baseline, not 100%.
    t.setOnline(2, "0-2", 500000, 0, 1000, 2000000, 0, 0, 0, 0, 0, 0);
    t.setOnline(3, "0-3", 600000, 0, 1000, 2000000, 0, 0, 0, 0, 0, 0);
    clock.advanceSeconds(1);
    x = s.sample();
    assertEquals(4, x.onlineCores());
    assertTrue(x.cores().stream().allMatch(c -> c.busy() <= 1.0 && c.busy() >= 0));
    assertEquals(0.0, x.cores().stream().filter(c -> c.cpu() == 2).findFirst().orElseThrow().busy());
    t.addCpuTicks(2, 25, 0, 0, 75, 0, 0, 0, 0);
    clock.advanceSeconds(1);
    x = s.sample();
    assertEquals(0.25, x.cores().stream().filter(c -> c.cpu() == 2).findFirst().orElseThrow().busy(), 1e-9);
  }

  @Test
  void aCorruptCounterFailsOnlyItsSourceAndIsCountedOnce() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.write(t.netFile("wt0", "statistics/tx_bytes"), "garbage\n");
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertFalse(x.source("tunnel").up());
    assertEquals(1, x.source("tunnel").errors());
    assertTrue(x.source("tunnel").lastError().contains("tx_bytes"), x.source("tunnel").lastError());
    assertTrue(x.source("cpu").up());
    assertTrue(x.source("underlay").up());
    assertNotNull(x.hottestCore());
  }

  @Test
  void missingStatisticsFileIsAnErrorNamingIt() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    try {
      java.nio.file.Files.delete(t.netFile("wt0", "statistics/rx_dropped"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Sample x = s.sample();
    assertFalse(x.source("tunnel").up());
    assertTrue(x.source("tunnel").lastError().contains("rx_dropped"), x.source("tunnel").lastError());
  }

  @Test
  void tunnelRecreatedBetweenSamplesGivesNoNegativeRateAndNoSpike() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = afterOneSecondOfDownload(t, 100_000_000);
    t.recreateInterface("wt0", 31);
    t.traffic("wt0", 40_000_000, 32_000, 0, 0);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals(40_000_000, x.throughput(Direction.DOWNLOAD), 1e-6);
    assertEquals(1, x.tunnelTraffic().restarts());
    assertEquals(140_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void slowChangingAttributesAreReReadAfterTenSecondsOrANewIfindex() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    assertEquals(1280, s.sample().tunnel().mtu());
    t.write(t.netFile("wt0", "mtu"), "1420\n");
    clock.advanceSeconds(1);
    assertEquals(1280, s.sample().tunnel().mtu(), "cached for a while: mtu is not read every second");
    clock.advanceSeconds(10);
    assertEquals(1420, s.sample().tunnel().mtu());
    t.recreateInterface("wt0", 77);
    t.write(t.netFile("wt0", "mtu"), "8920\n");
    clock.advanceSeconds(1);
    assertEquals(8920, s.sample().tunnel().mtu(), "a new interface is read afresh");
  }

  // The userspace tree's eth0 says 10000 Mbit/s: 1.25e9 B/s, so nothing faster than 2.5e9 B/s is traffic.

  @Test
  void aForwardJumpOfTenToTheFifteenBytesIsNoRateNoTotalAndNoPeak() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = afterOneSecondOfDownload(t, 100_000_000);
    t.addCounter("wt0", "tx_bytes", 1_000_000_000_000_000L);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertTrue(Double.isNaN(x.throughput(Direction.DOWNLOAD)), "download " + x.throughput(Direction.DOWNLOAD));
    assertEquals(0, x.throughput(Direction.UPLOAD));
    assertEquals(100_000_000, x.peak(Direction.DOWNLOAD));
    assertEquals(100_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
    assertEquals(1, x.tunnelTraffic().tooFast());
    assertEquals(0, x.tunnelTraffic().restarts());
    assertTrue(x.tunnelUp());
    t.traffic("wt0", 200_000_000, 160_000, 0, 0);
    clock.advanceSeconds(1);
    x = s.sample();
    assertEquals(200_000_000, x.throughput(Direction.DOWNLOAD), 1e-6);
    assertEquals(300_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
    assertEquals(200_000_000, x.peak(Direction.DOWNLOAD));
  }

  @Test
  void aConfiguredLineRateBoundsTheTunnelToo() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.of(12_500_000)); // 100 Mbit/s: 25 MB/s is the most believed
    s.sample();
    t.traffic("wt0", 25_000_000, 20_000, 0, 0);
    clock.advanceSeconds(1);
    assertEquals(25_000_000, s.sample().throughput(Direction.DOWNLOAD), 1e-6);
    t.traffic("wt0", 25_000_001, 20_000, 0, 0);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertTrue(Double.isNaN(x.throughput(Direction.DOWNLOAD)));
    assertEquals(25_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void aDropCounterSteppingBackIsNoRestartAndDoublesNothing() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    t.setCounter("wt0", "rx_dropped", 3);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.traffic("wt0", 10_000_000, 8_000, 20_000_000, 16_000);
    clock.advanceSeconds(1);
    s.sample();
    t.setCounter("wt0", "rx_dropped", 2);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertEquals(0, x.tunnelTraffic().restarts());
    assertEquals(1, x.tunnelTraffic().wentBack());
    assertEquals(0, x.throughput(Direction.DOWNLOAD));
    assertEquals(0, x.throughput(Direction.UPLOAD));
    assertEquals(10_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
    assertEquals(20_000_000, x.tunnelTraffic().total(InterfaceTracker.RX_BYTES));
    assertEquals(20_000_000, x.peak(Direction.UPLOAD));
  }

  @Test
  void aCounterAtTheTopOfSixtyFourBitsGivesNoSpikeInEitherDirection() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.setCounter("wt0", "tx_bytes", -1L);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertTrue(Double.isNaN(x.throughput(Direction.DOWNLOAD)));
    assertEquals(0, x.throughput(Direction.UPLOAD));
    assertEquals(0, x.peak(Direction.DOWNLOAD));
    assertEquals(0, x.peak(Direction.UPLOAD));
    assertEquals(0, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
    assertEquals(0, x.tunnelTraffic().total(InterfaceTracker.RX_BYTES));
    t.traffic("wt0", 5_000_000, 4_000, 0, 0); // wraps past 2^64
    clock.advanceSeconds(1);
    x = s.sample();
    assertEquals(5_000_000, x.throughput(Direction.DOWNLOAD), 1e-6);
    assertEquals(5_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void anUnreadableTunnelHasNoRatesIsNotUpAndItsGapIsCountedOnceItReadsAgain() {
    FixtureTree t = FixtureTree.copy("userspace", dir);
    Sampler s = afterOneSecondOfDownload(t, 100_000_000);
    long tx = t.counter("wt0", "tx_bytes");
    t.write(t.netFile("wt0", "statistics/tx_bytes"), "garbage\n");
    for (int i = 0; i < 2; i++) {
      clock.advanceSeconds(1);
      Sample x = s.sample();
      assertTrue(Double.isNaN(x.throughput(Direction.DOWNLOAD)));
      assertTrue(Double.isNaN(x.throughput(Direction.UPLOAD)));
      assertFalse(x.tunnelUp());
      assertTrue(x.tunnel().present(), "the last good reading is kept for MTU and datapath");
      assertEquals(100_000_000, x.peak(Direction.DOWNLOAD));
      assertEquals(i + 1, x.source("tunnel").errors());
    }
    t.setCounter("wt0", "tx_bytes", tx + 300_000_000);
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertTrue(x.tunnelUp());
    assertEquals(100_000_000, x.throughput(Direction.DOWNLOAD), 1e-6); // 300 MB over the 3 s since the last read
    assertEquals(400_000_000, x.tunnelTraffic().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void anUnreadableCpuLeavesNoCoresRatherThanTheLastOnes() {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.write(t.proc().resolve("stat"), "cpu0 x\n");
    clock.advanceSeconds(1);
    Sample x = s.sample();
    assertFalse(x.source("cpu").up());
    assertEquals(List.of(), x.cores());
    assertTrue(Double.isNaN(x.datapathCores()), "kernel datapath CPU needs the softirq time");
  }

  /** A sampler over {@code t} that has seen a baseline and then one second with {@code bytes} of download. */
  private Sampler afterOneSecondOfDownload(FixtureTree t, long bytes) {
    Sampler s = sampler(t, OptionalDouble.empty());
    s.sample();
    t.traffic("wt0", bytes, bytes / 1250, 0, 0);
    clock.advanceSeconds(1);
    assertEquals(bytes, s.sample().throughput(Direction.DOWNLOAD), 1e-6);
    return s;
  }

  private static void bumpProcess(FixtureTree t, int pid, long utime, long stime) {
    Path stat = t.proc().resolve(pid + "/stat");
    String s = t.read(stat);
    int close = s.lastIndexOf(')');
    String[] rest = s.substring(close + 2).split(" ");
    rest[11] = Long.toString(Long.parseLong(rest[11]) + utime);
    rest[12] = Long.toString(Long.parseLong(rest[12]) + stime);
    t.write(stat, s.substring(0, close + 2) + String.join(" ", rest));
  }

  @Test
  void everyReadingOfASampleStandsAtTheTimeTheSampleIsStampedWith() {
    // Counters that move like the kernel's, brought up to each moment the sampler asks the time, and a thread
    // delayed by a different stall at each ask (a loaded host): a reading made later than its stamp would be
    // divided by the wrong interval, a rate above the load in one sample and below it in the next.
    FixtureTree t = FixtureTree.copy("userspace", dir);
    long[] stallsNanos = {1_000_000_000L, 170_000_000L, 30_000_000L, 740_000_000L, 1_300_000_000L};
    double bytesPerSecond = 125_000_000; // 1 Gbps
    long base = 1_000_000;
    long[] now = {0};
    int[] asks = {0};
    java.util.function.LongSupplier kernelTime = () -> {
      now[0] += stallsNanos[asks[0]++ % stallsNanos.length];
      t.setCounter("wt0", "tx_bytes", base + (long) (bytesPerSecond * now[0] / 1e9));
      return now[0];
    };
    Config settings = TestConfig.fixture(t.sys(), t.proc());
    Sampler s = new Sampler(settings, new ProcStatCpuSource(t.sys(), t.proc()), kernelTime, () -> 1_764_460_800_000L,
        Runnable::run, null);
    s.sample();
    for (int i = 0; i < 12; i++) {
      assertEquals(bytesPerSecond, s.sample().throughput(Direction.DOWNLOAD), 1.0, "sample " + i);
    }
  }
}
