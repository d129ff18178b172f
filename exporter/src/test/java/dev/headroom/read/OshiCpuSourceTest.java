package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.ChildJvm;
import dev.headroom.testing.FixtureTree;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OSHI, pointed at the configured roots, and the procfs parser must name the same cores with the same times. OSHI
 * takes its roots once per JVM, so each case runs in a JVM of its own.
 */
class OshiCpuSourceTest {
  @TempDir Path dir;

  @Test
  void oshiReadsThisMachineAsTheParserDoes() throws Exception {
    ChildJvm.run(Live.class);
  }

  @Test
  void oshiReadsTheFirstRootsOfItsJvmAfreshAndTheParserReadsAnyOthers() throws Exception {
    ChildJvm.run(Fixture.class, dir.toString());
  }

  static final class Live {
    public static void main(String[] args) throws Exception {
      CpuSource live = CpuSource.forRoots(Path.of("/sys"), Path.of("/proc"));
      assertInstanceOf(OshiCpuSource.class, live);
      CpuReading oshi = live.read();
      CpuReading proc = new ProcStatCpuSource(Path.of("/sys"), Path.of("/proc")).read();
      assertEquals(proc.online(), oshi.online());
      assertEquals(proc.cores().stream().map(CpuTimes::cpu).toList(), oshi.cores().stream().map(CpuTimes::cpu).toList());
      for (int i = 0; i < proc.cores().size(); i++) {
        CpuTimes a = oshi.cores().get(i);
        CpuTimes b = proc.cores().get(i);
        // Read a moment apart: allow a few seconds of drift, no more.
        assertTrue(Math.abs(a.total() - b.total()) < 5_000, "cpu" + a.cpu() + ": " + a + " vs " + b);
        assertTrue(a.total() > 0);
      }
    }
  }

  static final class Fixture {
    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      // Roots that do not exist are not given to OSHI (it would refuse them for the rest of the JVM).
      assertInstanceOf(ProcStatCpuSource.class, CpuSource.forRoots(dir.resolve("none/sys"), dir.resolve("none/proc")));
      FixtureTree t = FixtureTree.copy("offline-cpu", dir.resolve("peer"));
      CpuSource oshi = CpuSource.forRoots(t.sys(), t.proc());
      assertInstanceOf(OshiCpuSource.class, oshi);
      ProcStatCpuSource parser = new ProcStatCpuSource(t.sys(), t.proc());
      assertEquals(parser.read(), oshi.read());
      // Asked again at once, OSHI reads the file again rather than keeping its last answer.
      t.addCpuTicks(3, 10, 0, 0, 0, 0, 0, 0, 0);
      assertEquals(parser.read(), oshi.read());
      // Other roots later in this JVM: the parser, since OSHI's stay the first ones.
      assertInstanceOf(ProcStatCpuSource.class, CpuSource.forRoots(Path.of("/sys"), Path.of("/proc")));
      assertInstanceOf(OshiCpuSource.class, CpuSource.forRoots(t.sys(), t.proc()));
    }
  }
}
