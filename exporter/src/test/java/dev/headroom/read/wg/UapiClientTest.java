package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against a stand-in daemon on a real Unix socket in a temporary run directory. */
class UapiClientTest {

  @TempDir Path runDir;

  /** Accepts one connection, checks the request is get=1, answers with {@code reply}, then closes or hangs. */
  private CompletableFuture<String> serveOnce(String iface, String reply, boolean hangAfterReply, CountDownLatch release)
      throws IOException {
    Path dir = Files.createDirectories(runDir.resolve("wireguard"));
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(dir.resolve(iface + ".sock")));
    return CompletableFuture.supplyAsync(() -> {
      try (server; SocketChannel c = server.accept()) {
        ByteBuffer req = ByteBuffer.allocate(7);
        while (req.hasRemaining() && c.read(req) >= 0) {
          // read exactly "get=1\n\n"
        }
        String got = new String(req.array(), 0, req.position(), StandardCharsets.US_ASCII);
        // Dribble the reply in small pieces, as a busy daemon may.
        byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
        for (int off = 0; off < bytes.length; off += 100) {
          c.write(ByteBuffer.wrap(bytes, off, Math.min(100, bytes.length - off)));
        }
        if (hangAfterReply) {
          release.await(10, TimeUnit.SECONDS);
        }
        return got;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void sendsGetAndParsesTheReplyOfADaemon() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    // The stand-in keeps the connection open after replying, as wireguard-go does: the client must stop at
    // the blank line rather than wait for EOF.
    CompletableFuture<String> request = serveOnce("wt0", Fixtures.read("uapi-wireguard-go-routing-peer.txt"), true, release);
    List<TunnelPeer> peers = new UapiClient(runDir, Duration.ofSeconds(5)).peers("wt0");
    release.countDown();
    assertEquals("get=1\n\n", request.get(5, TimeUnit.SECONDS));
    assertEquals(3, peers.size());
  }

  @Test
  void daemonThatNeverAnswersTimesOutWithAClearError() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    serveOnce("wt0", "", true, release);
    UapiClient client = new UapiClient(runDir, Duration.ofMillis(300));
    SocketTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> assertThrows(SocketTimeoutException.class, () -> client.peers("wt0")));
    release.countDown();
    assertTrue(e.getMessage().contains("wt0.sock") && e.getMessage().contains("300 ms"), e.getMessage());
  }

  @Test
  void daemonClosingMidReplyIsReportedAsTruncated() throws Exception {
    String full = Fixtures.read("uapi-wireguard-go-routing-peer.txt");
    serveOnce("wt0", full.substring(0, full.length() / 2), false, new CountDownLatch(0));
    UapiClient client = new UapiClient(runDir, Duration.ofSeconds(5));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> client.peers("wt0"));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void errnoReplyBecomesAnErrnoException() throws Exception {
    serveOnce("wt0", "errno=-22\n\n", false, new CountDownLatch(0));
    UapiErrnoException e = assertThrows(UapiErrnoException.class,
        () -> new UapiClient(runDir, Duration.ofSeconds(5)).peers("wt0"));
    assertTrue(e.getMessage().contains("errno=-22"), e.getMessage());
  }

  @Test
  void missingSocketSaysWhyThereMayBeNone() {
    UapiClient client = new UapiClient(runDir, Duration.ofSeconds(1));
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> client.peers("wt0"));
    assertTrue(e.getMessage().contains("kernel datapath"), e.getMessage());
    assertEquals(runDir.resolve("wireguard/wt0.sock").toString(), e.getFile());
  }

  @Test
  void staleSocketWithNoListenerIsNamedAsStale() throws Exception {
    Path dir = Files.createDirectories(runDir.resolve("wireguard"));
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      s.bind(UnixDomainSocketAddress.of(dir.resolve("wt0.sock")));
    } // closed: the file stays, nobody listens (what a killed daemon leaves behind)
    IOException e = assertThrows(IOException.class, () -> new UapiClient(runDir, Duration.ofSeconds(1)).peers("wt0"));
    assertTrue(e.getMessage().contains("stale"), e.getMessage());
  }

  @Test
  void socketPathIsUnderTheGivenRunDirAndRefusesPathTricks() {
    UapiClient client = new UapiClient(Path.of("/var/run"), Duration.ofSeconds(1));
    assertEquals(Path.of("/var/run/wireguard/wt0.sock"), client.socketPath("wt0"));
    for (String bad : new String[] {"../etc/x", "a/b", "", "..", "sixteen-chars-xx", "wt 0"}) {
      assertThrows(IllegalArgumentException.class, () -> client.socketPath(bad), bad);
    }
  }

  @Test
  void refusesANonPositiveTimeout() {
    assertThrows(IllegalArgumentException.class, () -> new UapiClient(runDir, Duration.ZERO));
  }
}
