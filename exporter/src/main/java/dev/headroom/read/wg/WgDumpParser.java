package dev.headroom.read.wg;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/**
 * Parses {@code wg show <iface> dump}: tab-separated, the first line is the interface
 * ({@code private-key public-key listen-port fwmark}), then one line per peer
 * ({@code public-key preshared-key endpoint allowed-ips latest-handshake transfer-rx transfer-tx
 * persistent-keepalive}). {@code (none)} marks an absent endpoint or allowed-IP list, {@code off} a
 * disabled keepalive, 0 a handshake that never happened. Keys are base64 here and converted to the hex
 * spelling of {@link TunnelPeer}, so the same tunnel has the same key whichever source read it.
 * The private and preshared keys are never kept.
 *
 * <p>Usage: {@code List<TunnelPeer> peers = WgDumpParser.parse(output);}
 */
public final class WgDumpParser {

  private WgDumpParser() {}

  public static List<TunnelPeer> parse(String dump) {
    if (dump == null || dump.isBlank()) {
      throw new IllegalArgumentException("empty wg dump: expected an interface line");
    }
    String[] lines = dump.split("\n", -1);
    String first = stripCr(lines[0]);
    int ifaceFields = first.split("\t", -1).length;
    if (ifaceFields != 4) {
      throw new IllegalArgumentException("wg dump line 1 has " + ifaceFields
          + " tab-separated fields, expected 4 (private-key public-key listen-port fwmark);"
          + " 'wg show all dump' output is not supported, name the interface");
    }
    List<TunnelPeer> peers = new ArrayList<>(Math.max(0, lines.length - 1));
    for (int i = 1; i < lines.length; i++) {
      String line = stripCr(lines[i]);
      if (line.isEmpty()) {
        continue;
      }
      peers.add(parsePeer(line, i + 1));
    }
    return Collections.unmodifiableList(peers);
  }

  private static TunnelPeer parsePeer(String line, int lineNo) {
    String[] f = line.split("\t", -1);
    if (f.length != 8) {
      throw new IllegalArgumentException("wg dump line " + lineNo + " has " + f.length
          + " tab-separated fields, expected 8 (public-key preshared-key endpoint allowed-ips"
          + " latest-handshake transfer-rx transfer-tx persistent-keepalive)");
    }
    String keyHex = keyToHex(f[0], lineNo);
    String endpoint = "(none)".equals(f[2]) || f[2].isEmpty() ? null : f[2];
    int allowed = "(none)".equals(f[3]) || f[3].isEmpty() ? 0 : (int) f[3].chars().filter(c -> c == ',').count() + 1;
    long handshake = number("latest-handshake", f[4], lineNo);
    long rx = number("transfer-rx", f[5], lineNo);
    long tx = number("transfer-tx", f[6], lineNo);
    return new TunnelPeer(keyHex, rx, tx, handshake, endpoint, allowed);
  }

  private static String keyToHex(String b64, int lineNo) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(b64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("wg dump line " + lineNo + ": public key is not base64: \"" + b64 + "\"");
    }
    if (raw.length != 32) {
      throw new IllegalArgumentException("wg dump line " + lineNo + ": public key decodes to " + raw.length + " bytes, expected 32");
    }
    return HexFormat.of().formatHex(raw);
  }

  private static long number(String field, String value, int lineNo) {
    try {
      long v = Long.parseUnsignedLong(value);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // fall through to the error below
    }
    throw new IllegalArgumentException("wg dump line " + lineNo + ": " + field + " \"" + value + "\" is not a non-negative number");
  }

  private static String stripCr(String s) {
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }
}
