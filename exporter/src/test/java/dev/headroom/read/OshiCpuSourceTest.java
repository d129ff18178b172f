package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OSHI and the procfs parser read the same live /proc: they must name the same cores with the same times. */
class OshiCpuSourceTest {
  @Test
  void oshiAgreesWithProcStatOnThisMachine() throws Exception {
    CpuReading oshi = new OshiCpuSource(Path.of("/sys")).read();
    CpuReading proc = new ProcStatCpuSource(Path.of("/sys"), Path.of("/proc")).read();
    assertEquals(proc.online(), oshi.online());
    assertEquals(proc.cores().stream().map(CpuTimes::cpu).toList(), oshi.cores().stream().map(CpuTimes::cpu).toList());
    for (int i = 0; i < proc.cores().size(); i++) {
      CpuTimes a = oshi.cores().get(i);
      CpuTimes b = proc.cores().get(i);
      // Read a moment apart and OSHI memoizes briefly: allow a few seconds of drift, no more.
      assertTrue(Math.abs(a.total() - b.total()) < 5_000, "cpu" + a.cpu() + ": " + a + " vs " + b);
      assertTrue(a.total() > 0);
    }
  }

  @Test
  void liveRootsChooseOshiAndFixtureRootsChooseProcfs() {
    assertInstanceOf(OshiCpuSource.class, CpuSource.forRoots(Path.of("/sys"), Path.of("/proc")));
    assertInstanceOf(ProcStatCpuSource.class, CpuSource.forRoots(Path.of("/tmp/sys"), Path.of("/tmp/proc")));
  }
}
