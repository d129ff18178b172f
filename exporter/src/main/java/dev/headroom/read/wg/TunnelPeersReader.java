package dev.headroom.read.wg;

import dev.headroom.read.Datapath;
import dev.headroom.read.ReadException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Reads every tunnel of the interface the way its datapath allows: the UAPI socket for a userspace
 * datapath, {@code wg show <if> dump} for kernel WireGuard.
 *
 * <p>Usage: {@code List<TunnelPeer> peers = new TunnelPeersReader(Path.of("/var/run"), "wg").read(datapath, "wt0");}
 */
public final class TunnelPeersReader {
  /** The bound on one read of every tunnel. */
  public static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final UapiClient uapi;
  private final WgDumpReader wg;

  public TunnelPeersReader(Path runDir, String wgCommand) {
    this.uapi = new UapiClient(runDir, TIMEOUT);
    this.wg = new WgDumpReader(wgCommand, TIMEOUT);
  }

  /** The tunnels, or an error naming the source; an absent datapath has none. */
  public List<TunnelPeer> read(Datapath datapath, String iface) throws ReadException {
    try {
      return switch (datapath) {
        case USERSPACE -> uapi.peers(iface);
        case KERNEL -> wg.peers(iface);
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
}
