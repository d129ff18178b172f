package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.FixtureTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatapathCpuReaderTest {
  @TempDir Path dir;

  @Test
  void kernelDescriptionNamesTheThreadsItCountsAndSoftirq() throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    DatapathCpuReader r = new DatapathCpuReader(t.proc(), "wt0", List.of("wireguard-go"), 10_000_000_000L);

    DatapathCpuReader.DatapathCpu cpu = r.read(Datapath.KERNEL, 0);

    assertEquals(List.of(311, 312), cpu.pids().stream().sorted().toList());
    assertEquals("softirq plus 2 kernel threads: kworker/u8:3-wg-crypt-wt0, napi/wt0-0", cpu.description());
  }

  @Test
  void kernelDescriptionSaysSoftirqOnlyWhenNoThreadRuns() throws Exception {
    FixtureTree t = FixtureTree.copy("kernel", dir);
    for (String pid : List.of("311", "312")) {
      Files.writeString(t.proc().resolve(pid).resolve("comm"), "kworker/0:1-events\n");
    }
    DatapathCpuReader r = new DatapathCpuReader(t.proc(), "wt0", List.of("wireguard-go"), 10_000_000_000L);

    DatapathCpuReader.DatapathCpu cpu = r.read(Datapath.KERNEL, 0);

    assertTrue(cpu.pids().isEmpty(), cpu.pids().toString());
    assertEquals("softirq only (no napi/wt0-N or wg-crypt-wt0 thread seen)", cpu.description());
  }
}
