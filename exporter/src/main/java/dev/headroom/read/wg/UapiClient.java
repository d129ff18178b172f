package dev.headroom.read.wg;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads a userspace WireGuard interface's peers over the cross-platform UAPI socket
 * {@code <runDir>/wireguard/<iface>.sock} (wireguard-go, NetBird's userspace mode, boringtun): sends
 * {@code get=1\n\n} and reads up to the terminating empty line, all within one timeout.
 *
 * <p>The socket is created by the daemon as root with mode 0700 in a 0755 directory: connecting needs
 * uid 0 or CAP_DAC_OVERRIDE (write permission on the socket file). A kernel-WireGuard interface has no
 * socket ({@link TunnelPeersReader} runs {@code wg} for it); NetBird's netstack mode has none either.
 *
 * <p>Immutable and safe to share: each call opens and closes its own connection.
 *
 * <p>Usage: {@code List<TunnelPeer> peers = new UapiClient(Path.of("/var/run"), Duration.ofSeconds(2)).peers("wt0");}
 */
public final class UapiClient {

  /** Linux IFNAMSIZ-1 and the characters an interface name may sensibly hold; keeps the path inside runDir. */
  static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_.\\-]{1,15}");

  /** A reply larger than this is refused: ~500 bytes per peer makes it room for ~60,000 peers. */
  static final int MAX_REPLY_BYTES = 32 * 1024 * 1024;

  private static final byte[] GET = "get=1\n\n".getBytes(StandardCharsets.US_ASCII);

  private final Path runDir;
  private final Duration timeout;

  /**
   * @param runDir the run directory holding {@code wireguard/} (normally {@code /var/run})
   * @param timeout the bound on connecting, writing the request and reading the whole reply
   */
  public UapiClient(Path runDir, Duration timeout) {
    this.runDir = Objects.requireNonNull(runDir, "runDir");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("UAPI timeout must be positive, got " + timeout);
    }
  }

  public Path socketPath(String iface) {
    if (iface == null || !IFACE.matcher(iface).matches() || iface.equals(".") || iface.equals("..")) {
      throw new IllegalArgumentException("not a valid interface name: \"" + iface + "\"");
    }
    return runDir.resolve("wireguard").resolve(iface + ".sock");
  }

  /**
   * Sends {@code get=1} and parses the reply, up to and including the terminating empty line, or whatever
   * arrived before the daemon closed the connection ({@link UapiParser} reports a cut reply).
   *
   * @throws NoSuchFileException no socket: interface absent, or not a userspace datapath
   * @throws AccessDeniedException the socket exists but this process may not connect to it
   * @throws SocketTimeoutException the whole exchange did not finish within the timeout
   */
  public List<TunnelPeer> peers(String iface) throws IOException {
    Path sock = socketPath(iface);
    if (!Files.exists(sock)) {
      throw new NoSuchFileException(sock.toString(), null,
          "no WireGuard UAPI socket (interface absent, kernel datapath, or NetBird netstack mode)");
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        Selector selector = Selector.open()) {
      ch.configureBlocking(false);
      try {
        if (!ch.connect(UnixDomainSocketAddress.of(sock))) {
          ch.register(selector, SelectionKey.OP_CONNECT);
          await(selector, deadline, sock, "connecting");
          ch.finishConnect();
        }
      } catch (IOException e) {
        throw explainConnectFailure(sock, e);
      }
      ByteBuffer out = ByteBuffer.wrap(GET);
      SelectionKey key = ch.register(selector, SelectionKey.OP_WRITE);
      while (out.hasRemaining()) {
        if (ch.write(out) == 0) {
          await(selector, deadline, sock, "sending get=1");
        }
      }
      key.interestOps(SelectionKey.OP_READ);
      ReplyBuffer reply = new ReplyBuffer();
      ByteBuffer in = ByteBuffer.allocate(64 * 1024);
      while (!reply.complete()) {
        in.clear();
        int n = ch.read(in);
        if (n < 0) {
          break; // closed early: hand the partial text to the parser, which names the problem
        }
        if (n == 0) {
          await(selector, deadline, sock, "reading the reply (" + reply.size() + " bytes so far)");
          continue;
        }
        in.flip();
        reply.append(in);
        if (reply.size() > MAX_REPLY_BYTES) {
          throw new IOException("UAPI reply from " + sock + " exceeds " + MAX_REPLY_BYTES + " bytes; refusing it");
        }
        // A reply that keeps arriving never waits, so the deadline is checked here too: on a loaded host a
        // 3,000-tunnel reply was seen to take 15 s, every read finding a little more.
        if (System.nanoTime() - deadline > 0) {
          throw new SocketTimeoutException("UAPI " + sock + ": no answer within " + timeout.toMillis()
              + " ms while reading the reply (" + reply.size() + " bytes so far)");
        }
      }
      return UapiParser.parse(reply.text());
    }
  }

  private void await(Selector selector, long deadline, Path sock, String what) throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("UAPI " + sock + ": no answer within " + timeout.toMillis() + " ms while " + what);
    }
    // select(0) would block forever: never pass less than 1 ms. A select that times out brings the
    // caller straight back here with no time left.
    selector.select(Math.max(1, left / 1_000_000));
    selector.selectedKeys().clear();
  }

  private static IOException explainConnectFailure(Path sock, IOException e) {
    String msg = String.valueOf(e.getMessage());
    if (msg.contains("Permission denied")) {
      return new AccessDeniedException(sock.toString(), null,
          "cannot connect to the WireGuard UAPI socket (it is root-only, mode 0700): run as root or grant CAP_DAC_OVERRIDE");
    }
    if (msg.contains("Connection refused") || msg.contains("No such file")) {
      return new IOException("WireGuard UAPI socket " + sock + " is stale (no daemon listening): " + msg, e);
    }
    return e;
  }

  /** Accumulates reply bytes and notices the blank line that ends a UAPI reply. */
  private static final class ReplyBuffer {
    private byte[] buf = new byte[8 * 1024];
    private int size;
    private int scanFrom = 1;
    private int end = -1;

    void append(ByteBuffer in) {
      int n = in.remaining();
      if (size + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
      }
      in.get(buf, size, n);
      size += n;
    }

    /** The reply ends at the first "\n\n" (the peer section has no empty lines). */
    boolean complete() {
      for (int i = Math.max(1, scanFrom); i < size; i++) {
        if (buf[i] == '\n' && buf[i - 1] == '\n') {
          end = i + 1;
          return true;
        }
      }
      scanFrom = Math.max(1, size);
      return false;
    }

    int size() {
      return size;
    }

    String text() {
      return new String(buf, 0, end > 0 ? end : size, StandardCharsets.UTF_8);
    }
  }
}
