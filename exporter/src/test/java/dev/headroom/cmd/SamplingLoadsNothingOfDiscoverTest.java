package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-peer commands carry nothing of {@code discover}: registering its flags loads only {@link DiscoverCommand},
 * never the API client, the HTTP client of {@code java.net.http} or the discovery server, so a routing peer's memory
 * is what it was.
 */
class SamplingLoadsNothingOfDiscoverTest {
  @TempDir Path dir;

  @Test
  void checkOnAFixturePeerLoadsNoDiscoveryClass() throws Exception {
    Path log = dir.resolve("classes.log");
    Path fixture = Path.of("src/test/resources/fixtures/kernel").toAbsolutePath();
    List<String> cmd = ChildJvm.command(Main.class, List.of("-Xlog:class+load=info:file=" + log), "check",
        "--path.sysfs=" + fixture.resolve("sys"), "--path.procfs=" + fixture.resolve("proc"), "--check.duration=1s",
        "--netbird.interval=0s", "--census.interval=0s", "--path.state=" + dir);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "check did not finish");
    String loaded = Files.readString(log);
    assertTrue(loaded.contains("dev.headroom.cmd.CheckCommand "), "the log holds the check's classes");
    List<String> discovery = loaded.lines()
        .filter(l -> l.contains("dev.headroom.read.netbird.") || l.contains("java.net.http.HttpClient ")
            || l.contains("DiscoverProcess") || l.contains("DiscoverServer") || l.contains("InventoryMetrics"))
        .toList();
    assertEquals(List.of(), discovery);
  }
}
