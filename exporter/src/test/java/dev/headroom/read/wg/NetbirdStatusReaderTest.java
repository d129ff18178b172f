package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader against stand-in {@code netbird} scripts. */
class NetbirdStatusReaderTest {

  @TempDir Path dir;

  private String fakeNetbird(String body) throws IOException {
    Path script = dir.resolve("netbird");
    Files.writeString(script, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script.toString();
  }

  private String fixtureFile(String name) throws IOException {
    Path f = dir.resolve(name);
    Files.writeString(f, Fixtures.read(name));
    return f.toString();
  }

  @Test
  void absentBinaryIsEmptyWithAReasonNotAnError() {
    NetbirdStatusReader r = new NetbirdStatusReader(dir.resolve("no-such-netbird").toString(), Duration.ofSeconds(5));
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("not installed"), r.lastProblem().toString());
    assertEquals(Optional.empty(), r.read()); // and again, quietly
  }

  @Test
  void readsTheJsonTheCommandPrintsAndPassesStatusJson() throws Exception {
    String args = dir.resolve("args").toString();
    String cmd = fakeNetbird("echo \"$@\" > " + args + "\ncat " + fixtureFile("netbird-status-v0.5x.json"));
    NetbirdStatusReader r = new NetbirdStatusReader(cmd, Duration.ofSeconds(5));
    NetbirdStatus s = r.read().orElseThrow();
    assertEquals(1, s.relayed());
    assertEquals("status --json", Files.readString(Path.of(args)).strip());
    assertFalse(r.lastProblem().isPresent());
  }

  @Test
  void notLoggedInTextIsEmptyWithTheDaemonStatusAsReason() throws Exception {
    NetbirdStatusReader r = new NetbirdStatusReader(
        fakeNetbird("cat " + fixtureFile("netbird-status-needs-login.txt")), Duration.ofSeconds(5));
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("Daemon status: NeedsLogin"), r.lastProblem().toString());
  }

  @Test
  void daemonDownIsEmptyWithItsErrorAsReason() throws Exception {
    NetbirdStatusReader r = new NetbirdStatusReader(
        fakeNetbird("echo 'Error: failed to connect to daemon error: context deadline exceeded' >&2; exit 1"),
        Duration.ofSeconds(5));
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("failed to connect to daemon"), r.lastProblem().toString());
  }

  @Test
  void hungCommandIsKilledAndEmpty() throws Exception {
    NetbirdStatusReader r = new NetbirdStatusReader(fakeNetbird("exec sleep 30"), Duration.ofMillis(300));
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("did not finish"), r.lastProblem().toString());
  }

  @Test
  void recoversAfterAProblem() throws Exception {
    Path toggle = dir.resolve("up");
    String cmd = fakeNetbird("[ -f " + toggle + " ] || exit 1\ncat " + fixtureFile("netbird-status-unenrolled.json"));
    NetbirdStatusReader r = new NetbirdStatusReader(cmd, Duration.ofSeconds(5));
    assertFalse(r.read().isPresent());
    Files.createFile(toggle);
    assertTrue(r.read().isPresent());
    assertFalse(r.lastProblem().isPresent());
  }
}
