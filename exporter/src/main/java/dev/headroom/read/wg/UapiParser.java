package dev.headroom.read.wg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Parses the reply to a WireGuard cross-platform UAPI {@code get=1} request into peers.
 *
 * <p>The reply is {@code key=value} lines: interface keys first ({@code private_key}, {@code listen_port},
 * {@code fwmark}), then one block per peer that starts at {@code public_key=} and carries
 * {@code preshared_key}, {@code protocol_version}, {@code endpoint}, {@code last_handshake_time_sec},
 * {@code last_handshake_time_nsec}, {@code tx_bytes}, {@code rx_bytes},
 * {@code persistent_keepalive_interval} and any number of {@code allowed_ip}; it ends with
 * {@code errno=N} and an empty line. Keys are lowercase hex. Unknown keys are ignored (forks such as
 * AmneziaWG add their own). Secrets ({@code private_key}, {@code preshared_key}) are skipped, never kept.
 *
 * <p>A non-zero errno raises {@link UapiErrnoException}; a reply without its {@code errno=} line
 * (daemon closed the socket early, output cut) or with a malformed line raises
 * {@link IllegalArgumentException} naming the line.
 *
 * <p>Usage: {@code List<TunnelPeer> peers = UapiParser.parse(replyText);}
 */
public final class UapiParser {

  private UapiParser() {}

  public static List<TunnelPeer> parse(String reply) {
    if (reply == null || reply.isEmpty()) {
      throw new IllegalArgumentException(
          "empty UAPI reply: the daemon closed the socket without answering (not a WireGuard UAPI socket?)");
    }
    List<TunnelPeer> peers = new ArrayList<>();
    PeerBuilder current = null;
    Long errno = null;
    int lineNo = 0;
    int start = 0;
    int len = reply.length();
    while (start < len) {
      int end = reply.indexOf('\n', start);
      if (end < 0) {
        end = len;
      }
      lineNo++;
      String line = reply.substring(start, end);
      start = end + 1;
      if (line.isEmpty()) {
        // The blank line terminates the reply; anything after it belongs to a next exchange.
        break;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("UAPI reply line " + lineNo + " is not key=value: \"" + clip(line) + "\"");
      }
      String key = line.substring(0, eq);
      String value = line.substring(eq + 1);
      if (errno != null) {
        throw new IllegalArgumentException("UAPI reply line " + lineNo + " follows the errno line: \"" + clip(line) + "\"");
      }
      switch (key) {
        case "errno" -> errno = parseSigned(key, value, lineNo);
        case "public_key" -> {
          if (current != null) {
            peers.add(current.build());
          }
          current = new PeerBuilder(checkKey(value, lineNo));
        }
        case "endpoint" -> requirePeer(current, key, lineNo).endpoint = value.isEmpty() ? null : value;
        case "last_handshake_time_sec" -> requirePeer(current, key, lineNo).handshakeSec = parseUnsigned(key, value, lineNo);
        case "rx_bytes" -> requirePeer(current, key, lineNo).rx = parseUnsigned(key, value, lineNo);
        case "tx_bytes" -> requirePeer(current, key, lineNo).tx = parseUnsigned(key, value, lineNo);
        case "allowed_ip" -> requirePeer(current, key, lineNo).allowedIps++;
        default -> {
          // private_key, listen_port, fwmark, preshared_key, protocol_version, last_handshake_time_nsec,
          // persistent_keepalive_interval and any key a fork adds: not needed for the census.
        }
      }
    }
    if (errno == null) {
      throw new IllegalArgumentException("UAPI reply truncated after " + lineNo
          + " lines: no errno= line (daemon stopped mid-reply or the read was cut short)");
    }
    if (errno != 0) {
      throw new UapiErrnoException(errno);
    }
    if (current != null) {
      peers.add(current.build());
    }
    return Collections.unmodifiableList(peers);
  }

  private static PeerBuilder requirePeer(PeerBuilder current, String key, int lineNo) {
    if (current == null) {
      throw new IllegalArgumentException("UAPI reply line " + lineNo + ": peer key " + key + " before any public_key=");
    }
    return current;
  }

  private static String checkKey(String hex, int lineNo) {
    if (hex.length() != 64) {
      throw new IllegalArgumentException("UAPI reply line " + lineNo + ": public_key is " + hex.length()
          + " characters, expected 64 hex digits");
    }
    for (int i = 0; i < 64; i++) {
      char c = hex.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        throw new IllegalArgumentException("UAPI reply line " + lineNo + ": public_key has a non-hex character '" + c + "'");
      }
    }
    return hex;
  }

  private static long parseUnsigned(String key, String value, int lineNo) {
    long v;
    try {
      v = Long.parseUnsignedLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("UAPI reply line " + lineNo + ": " + key + "=\"" + clip(value) + "\" is not a number");
    }
    if (v < 0) {
      // uint64 above 2^63: no real counter gets there; refuse instead of going negative.
      throw new IllegalArgumentException("UAPI reply line " + lineNo + ": " + key + "=" + value + " exceeds 2^63-1");
    }
    return v;
  }

  private static long parseSigned(String key, String value, int lineNo) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("UAPI reply line " + lineNo + ": " + key + "=\"" + clip(value) + "\" is not a number");
    }
  }

  private static String clip(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }

  private static final class PeerBuilder {
    final String key;
    long rx;
    long tx;
    long handshakeSec;
    String endpoint;
    int allowedIps;

    PeerBuilder(String key) {
      this.key = key;
    }

    TunnelPeer build() {
      return new TunnelPeer(key, rx, tx, handshakeSec, endpoint, allowedIps);
    }
  }
}
