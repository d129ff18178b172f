package dev.headroom.read.wg;

/**
 * The WireGuard userspace daemon answered a UAPI request with a non-zero {@code errno=} (for example
 * {@code -22}, EINVAL, for a malformed request); wireguard-go sends negated Linux errno values, and the message
 * names the value and what it means.
 *
 * <p>Usage: {@code catch (UapiErrnoException e) { log.warn("{}", e.getMessage()); }}
 */
public final class UapiErrnoException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public UapiErrnoException(long errno) {
    super("WireGuard UAPI returned errno=" + errno + switch ((int) Math.abs(errno)) {
      case 1 -> " (EPERM: operation not permitted)";
      case 2 -> " (ENOENT: no such peer or interface)";
      case 5 -> " (EIO: daemon I/O failure)";
      case 22 -> " (EINVAL: request refused as invalid)";
      case 55 -> " (wireguard-go: unknown daemon error)";
      case 71 -> " (EPROTO: protocol error)";
      case 98 -> " (EADDRINUSE: port in use)";
      default -> "";
    });
  }
}
