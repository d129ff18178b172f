package dev.headroom.read.wg;

/**
 * The WireGuard userspace daemon answered a UAPI request with a non-zero {@code errno=} (for example
 * {@code -22}, EINVAL, for a malformed request).
 *
 * <p>Usage: {@code catch (UapiErrnoException e) { log.warn("UAPI errno {}", e.errno()); }}
 */
public final class UapiErrnoException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final long errno;

  public UapiErrnoException(long errno) {
    super("WireGuard UAPI returned errno=" + errno + describe(errno));
    this.errno = errno;
  }

  /** The value after {@code errno=}; wireguard-go sends negated Linux errno values. */
  public long errno() {
    return errno;
  }

  private static String describe(long errno) {
    switch ((int) Math.abs(errno)) {
      case 1: return " (EPERM: operation not permitted)";
      case 2: return " (ENOENT: no such peer or interface)";
      case 5: return " (EIO: daemon I/O failure)";
      case 22: return " (EINVAL: request refused as invalid)";
      case 55: return " (wireguard-go: unknown daemon error)";
      case 71: return " (EPROTO: protocol error)";
      case 98: return " (EADDRINUSE: port in use)";
      default: return "";
    }
  }
}
