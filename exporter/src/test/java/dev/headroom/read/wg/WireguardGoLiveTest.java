package dev.headroom.read.wg;

import dev.headroom.read.Datapath;
import dev.headroom.testing.Needs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Both readers against a real wireguard-go in a throwaway network namespace. Needs root, wireguard-go,
 * wg and ip (Debian: wireguard-go, wireguard-tools, iproute2); fails loudly without them.
 */
@Tag(Needs.ROOT)
class WireguardGoLiveTest {

  private static final Path RUN = Path.of("/var/run");
  private static final Duration STEP = Duration.ofSeconds(10);
  private static final long ID = ProcessHandle.current().pid() % 100_000;
  private static final String NS = "hr-census-t" + ID;
  private static final String IFACE = "hrcen" + ID;

  private static Process daemon;
  private static final List<String> peerKeysHex = new ArrayList<>();
  private static Path workDir;

  @BeforeAll
  static void startWireguardGo() throws Exception {
    String uid = run(List.of("id", "-u")).strip();
    if (!uid.equals("0")) {
      fail("this test creates a network namespace and a wireguard-go interface: run it as root (uid is " + uid + ")");
    }
    for (String tool : List.of("wireguard-go", "wg", "ip")) {
      if (runStatus(List.of("sh", "-c", "command -v " + tool)) != 0) {
        fail(tool + " is not installed: apt-get install --no-install-recommends wireguard-go wireguard-tools iproute2");
      }
    }
    workDir = Files.createTempDirectory("hr-census-live");
    run(List.of("ip", "netns", "add", NS));
    daemon = new ProcessBuilder("ip", "netns", "exec", NS, "wireguard-go", "-f", IFACE)
        .redirectErrorStream(true)
        .redirectOutput(workDir.resolve("wireguard-go.log").toFile())
        .start();
    Path sock = RUN.resolve("wireguard").resolve(IFACE + ".sock");
    await().atMost(STEP).until(() -> Files.exists(sock) || !daemon.isAlive());
    if (!daemon.isAlive()) {
      fail("wireguard-go exited: " + Files.readString(workDir.resolve("wireguard-go.log")));
    }
    Path priv = workDir.resolve("priv");
    Files.writeString(priv, run(List.of("wg", "genkey")));
    List<String> set = new ArrayList<>(List.of("ip", "netns", "exec", NS, "wg", "set", IFACE,
        "private-key", priv.toString(), "listen-port", "0"));
    String[][] peers = {
        {"10.77.0.2/32,fd00:77::2/128", "127.0.0.1:51001"},
        {"10.77.0.3/32", null},
    };
    for (String[] p : peers) {
      String pub = runWithInput(List.of("wg", "pubkey"), run(List.of("wg", "genkey"))).strip();
      peerKeysHex.add(HexFormat.of().formatHex(Base64.getDecoder().decode(pub)));
      set.addAll(List.of("peer", pub, "allowed-ips", p[0]));
      if (p[1] != null) {
        set.addAll(List.of("endpoint", p[1]));
      }
    }
    run(set);
  }

  @AfterAll
  static void stopWireguardGo() throws Exception {
    if (daemon != null) {
      daemon.destroy(); // SIGTERM to this PID only: ip netns exec execs wireguard-go in place
      if (!daemon.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        daemon.destroyForcibly();
      }
    }
    runStatus(List.of("ip", "netns", "del", NS));
    Files.deleteIfExists(RUN.resolve("wireguard").resolve(IFACE + ".sock"));
    if (workDir != null) {
      try (var files = Files.list(workDir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(workDir);
    }
  }

  @Test
  void uapiClientReadsThePeersOfARunningWireguardGo() throws Exception {
    List<TunnelPeer> peers = sorted(new UapiClient(RUN, Duration.ofSeconds(5)).peers(IFACE));
    assertEquals(2, peers.size());
    TunnelPeer withEndpoint = find(peers, peerKeysHex.get(0));
    assertEquals("127.0.0.1:51001", withEndpoint.endpoint());
    assertEquals(2, withEndpoint.allowedIps());
    TunnelPeer silent = find(peers, peerKeysHex.get(1));
    assertNull(silent.endpoint());
    assertEquals(1, silent.allowedIps());
    assertEquals(0, silent.lastHandshakeEpochSeconds());
  }

  @Test
  void wgDumpReaderSeesTheSamePeersAsTheUapiClient() throws Exception {
    List<TunnelPeer> viaWg = sorted(new TunnelPeersReader(RUN, "wg").read(Datapath.KERNEL, IFACE));
    List<TunnelPeer> viaUapi = sorted(new UapiClient(RUN, Duration.ofSeconds(5)).peers(IFACE));
    assertEquals(viaUapi.stream().map(TunnelPeer::publicKeyHex).toList(),
        viaWg.stream().map(TunnelPeer::publicKeyHex).toList());
    assertEquals(viaUapi.stream().map(TunnelPeer::allowedIps).toList(),
        viaWg.stream().map(TunnelPeer::allowedIps).toList());
  }

  @Test
  void wgDumpReaderNamesAMissingInterface() {
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> new TunnelPeersReader(RUN, "wg").read(Datapath.KERNEL, "hrnosuch0"));
    assertTrue(e.getMessage().contains("hrnosuch0"), e.getMessage());
  }

  private static TunnelPeer find(List<TunnelPeer> peers, String keyHex) {
    return peers.stream().filter(p -> p.publicKeyHex().equals(keyHex)).findFirst()
        .orElseThrow(() -> new AssertionError("peer " + keyHex + " missing from " + peers));
  }

  private static List<TunnelPeer> sorted(List<TunnelPeer> peers) {
    return peers.stream().sorted(Comparator.comparing(TunnelPeer::publicKeyHex)).toList();
  }

  private static String run(List<String> cmd) throws IOException {
    return runWithInput(cmd, null);
  }

  private static String runWithInput(List<String> cmd, String input) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (input != null) {
      p.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
    }
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(STEP.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + " hung");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out);
    }
    return out;
  }

  private static int runStatus(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
