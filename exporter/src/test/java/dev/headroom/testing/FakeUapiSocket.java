package dev.headroom.testing;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A Unix-domain socket at {@code <runDir>/wireguard/<iface>.sock} that answers {@code get=1} with the text a
 * supplier gives, as wireguard-go does: the reader under test speaks the real protocol to it.
 *
 * <p>Usage: {@code try (FakeUapiSocket s = FakeUapiSocket.start(runDir, "wt0", () -> text)) { ... }}
 */
public final class FakeUapiSocket implements AutoCloseable {
  private final ServerSocketChannel server;
  private final Thread thread;

  private FakeUapiSocket(ServerSocketChannel server, Supplier<String> reply) {
    this.server = server;
    this.thread = new Thread(() -> {
      if (reply == null) {
        hold();
      } else {
        serve(reply);
      }
    }, "fake-uapi");
    thread.setDaemon(true);
    thread.start();
  }

  public static FakeUapiSocket start(Path runDir, String iface, Supplier<String> reply) throws IOException {
    Path dir = runDir.resolve("wireguard");
    Files.createDirectories(dir);
    ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    s.bind(UnixDomainSocketAddress.of(dir.resolve(iface + ".sock")));
    return new FakeUapiSocket(s, reply);
  }

  /**
   * A socket that accepts every connection and never answers, as a wedged datapath would: a reader gets
   * nothing until its own timeout.
   */
  public static FakeUapiSocket silent(Path runDir, String iface) throws IOException {
    return start(runDir, iface, null);
  }

  private void hold() {
    java.util.List<SocketChannel> held = new java.util.ArrayList<>();
    try {
      while (server.isOpen()) {
        held.add(server.accept());
      }
    } catch (IOException e) {
      // closed
    } finally {
      for (SocketChannel c : held) {
        try {
          c.close();
        } catch (IOException ignored) {
          // closing a test socket
        }
      }
    }
  }

  private void serve(Supplier<String> reply) {
    while (server.isOpen()) {
      try (SocketChannel c = server.accept()) {
        ByteBuffer in = ByteBuffer.allocate(64);
        StringBuilder req = new StringBuilder();
        while (!req.toString().endsWith("\n\n") && c.read(in) > 0) {
          in.flip();
          req.append(StandardCharsets.US_ASCII.decode(in));
          in.clear();
        }
        c.write(ByteBuffer.wrap(reply.get().getBytes(StandardCharsets.US_ASCII)));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
