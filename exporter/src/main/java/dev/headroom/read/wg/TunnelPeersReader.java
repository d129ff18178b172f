package dev.headroom.read.wg;

import dev.headroom.read.Datapath;
import dev.headroom.read.ReadException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Reads every tunnel of the interface the way its datapath allows: the UAPI socket for a userspace
 * datapath, {@code wg show <if> dump} (wireguard-tools) for kernel WireGuard, which has no UAPI socket and
 * answers only to CAP_NET_ADMIN (netlink), so the service needs that capability, or root.
 *
 * <p>Usage: {@code List<TunnelPeer> peers = new TunnelPeersReader(Path.of("/var/run"), "wg").read(datapath, "wt0");}
 */
public final class TunnelPeersReader {
  /** The bound on one read of every tunnel. */
  public static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final UapiClient uapi;
  /** The {@code wg} executable: a name looked up on PATH, or an absolute path. */
  private final String wgCommand;

  public TunnelPeersReader(Path runDir, String wgCommand) {
    this.uapi = new UapiClient(runDir, TIMEOUT);
    this.wgCommand = wgCommand;
  }

  /** The tunnels, or an error naming the source; an absent datapath has none. */
  public List<TunnelPeer> read(Datapath datapath, String iface) throws ReadException {
    try {
      return switch (datapath) {
        case USERSPACE -> uapi.peers(iface);
        case KERNEL -> wgDump(iface);
        // netstack has no UAPI socket and no kernel device: its tunnels come from NetBird's status call
        case NETSTACK, ABSENT -> List.of();
      };
    } catch (ReadException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      String via = datapath == Datapath.USERSPACE ? uapi.socketPath(iface).toString() : "wg show " + iface + " dump";
      String msg = String.valueOf(e.getMessage());
      throw new ReadException(msg.contains(via) ? msg : via + ": " + msg, e);
    }
  }

  /**
   * Runs {@code wg show <iface> dump}; its failure names the exit code and stderr (e.g. "Operation not
   * permitted" without CAP_NET_ADMIN, "No such device" without the interface).
   */
  private List<TunnelPeer> wgDump(String iface) throws IOException {
    if (iface == null || !UapiClient.IFACE.matcher(iface).matches()) {
      throw new IllegalArgumentException("not a valid interface name: \"" + iface + "\"");
    }
    CommandRunner.Result r = CommandRunner.run(List.of(wgCommand, "show", iface, "dump"), TIMEOUT);
    if (r.exitCode() != 0) {
      String err = r.stderr().strip();
      String hint = err.contains("Operation not permitted")
          ? " (reading kernel WireGuard needs CAP_NET_ADMIN)"
          : "";
      throw new IOException(wgCommand + " show " + iface + " dump exited " + r.exitCode() + ": " + err + hint);
    }
    return WgDumpParser.parse(r.stdout());
  }
}
