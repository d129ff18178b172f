package dev.headroom.read.wg;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Reads per-peer counters by running {@code wg show <iface> dump} (wireguard-tools). This is the way in
 * for the kernel datapath, which has no UAPI socket; {@code wg} also works for userspace interfaces
 * (it talks to their UAPI socket). Kernel WireGuard answers only to CAP_NET_ADMIN (netlink), so the
 * service needs that capability, or root.
 *
 * <p>Usage: {@code List<TunnelPeer> peers = new WgDumpReader("wg", Duration.ofSeconds(2)).peers("wt0");}
 */
public final class WgDumpReader {

  private final String wgCommand;
  private final Duration timeout;

  /**
   * @param wgCommand the {@code wg} executable (a name looked up on PATH, or an absolute path)
   * @param timeout how long {@code wg} may take before it is killed, above zero
   */
  public WgDumpReader(String wgCommand, Duration timeout) {
    this.wgCommand = wgCommand;
    this.timeout = timeout;
  }

  /**
   * Runs {@code wg show <iface> dump} and parses it.
   *
   * @throws IOException wg is missing, failed (message includes its stderr: e.g. "Operation not
   *     permitted" without CAP_NET_ADMIN, "No such device" without the interface), or timed out
   */
  public List<TunnelPeer> peers(String iface) throws IOException {
    if (iface == null || !iface.matches("[A-Za-z0-9_.\\-]{1,15}")) {
      throw new IllegalArgumentException("not a valid interface name: \"" + iface + "\"");
    }
    CommandRunner.Result r = CommandRunner.run(List.of(wgCommand, "show", iface, "dump"), timeout);
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
