package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ProcStatTest {
  private static final Path STAT = Path.of("/proc/stat");

  private static List<CpuTimes> cores(String stat) throws ReadException {
    byte[] b = stat.getBytes(StandardCharsets.US_ASCII);
    return ProcStat.parseCores(b, b.length, STAT);
  }

  private static ProcessStat processStat(String stat) throws ReadException {
    byte[] b = stat.getBytes(StandardCharsets.UTF_8);
    return ProcessStat.parse(b, b.length, Path.of("/proc/4242/stat"));
  }

  @Test
  void coresAreKeyedByTheirRealIdWhenOneIsOffline() throws Exception {
    String stat = "cpu  300 0 30 900 0 0 3 0 0 0\n"
        + "cpu0 100 0 10 300 0 0 1 0 0 0\n"
        + "cpu1 100 0 10 300 0 0 1 0 0 0\n"
        + "cpu3 100 2 10 300 4 5 1 7 0 0\n"
        + "intr 1 2 3\n";
    List<CpuTimes> cores = cores(stat);
    assertEquals(List.of(0, 1, 3), cores.stream().map(CpuTimes::cpu).toList());
    CpuTimes c3 = cores.get(2);
    // USER_HZ ticks become milliseconds.
    assertEquals(1000, c3.user());
    assertEquals(20, c3.nice());
    assertEquals(3000, c3.idle());
    assertEquals(40, c3.iowait());
    assertEquals(50, c3.irq());
    assertEquals(10, c3.softirq());
    assertEquals(70, c3.steal());
  }

  @Test
  void oldKernelsWithFewerColumnsReadAsZero() throws Exception {
    List<CpuTimes> cores = cores("cpu0 1 2 3 4\n");
    assertEquals(0, cores.get(0).steal());
    assertEquals(40, cores.get(0).idle());
  }

  @Test
  void statWithoutCoreLinesIsAnError() {
    assertThrows(ReadException.class, () -> cores("cpu  1 2 3 4\nintr 5\n"));
  }

  @Test
  void nonNumericTicksAreAnError() {
    assertThrows(ReadException.class, () -> cores("cpu0 1 x 3 4 5 6 7 8\n"));
  }

  @Test
  void oshiSlotsAreRekeyedToOnlineIds() {
    // OSHI fills slots in line order: with cpu2 offline, slot 2 holds cpu3 and slot 3 is stale zeros.
    long[][] ticks = {
      {1, 0, 0, 9, 0, 0, 0, 0}, {2, 0, 0, 9, 0, 0, 0, 0}, {3, 0, 0, 9, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}
    };
    List<CpuTimes> cores = OshiCpuSource.assignSlots(ticks, new TreeSet<>(List.of(0, 1, 3)));
    assertEquals(List.of(0, 1, 3), cores.stream().map(CpuTimes::cpu).toList());
    assertEquals(3, cores.get(2).user());
  }

  @Test
  void coresOnlinedAfterOshiStartedAreDroppedNotMisattributed() {
    long[][] ticks = {{1, 0, 0, 9, 0, 0, 0, 0}, {2, 0, 0, 9, 0, 0, 0, 0}};
    List<CpuTimes> cores = OshiCpuSource.assignSlots(ticks, new TreeSet<>(List.of(0, 1, 2)));
    assertEquals(List.of(0, 1), cores.stream().map(CpuTimes::cpu).toList());
  }

  @Test
  void processStatSurvivesSpacesAndParensInTheName() throws Exception {
    String stat = "4242 (wireguard-go (x) y) S 1 4242 4242 0 -1 4194560 1 0 0 0 250 130 0 0 20 0 12 0 4321 1 1 1\n";
    ProcessStat s = processStat(stat);
    assertEquals(2500, s.utimeMillis());
    assertEquals(1300, s.stimeMillis());
  }

  @Test
  void truncatedProcessStatIsAnError() {
    assertThrows(ReadException.class, () -> processStat("4242 (netbird) S 1 2"));
  }
}
