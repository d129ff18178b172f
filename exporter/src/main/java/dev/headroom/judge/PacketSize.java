package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;

/**
 * What a packet's size does to a ceiling. A routing peer is bound by packets per second more than by bytes: part of
 * each packet's CPU cost is per packet (syscalls, queueing, the AEAD's setup), the rest per byte. The share that is
 * per packet is read off the reference's own jumbo measurement: a packet {@code R = 8920 / 1280} times larger gave
 * {@code J} times the bytes, so {@code f + (1 - f) R = R / J}; kernel download ({@code J >= 3.06}, NIC-bound) gives
 * {@code f ~ 0.79}, kernel upload ({@code J = 4.4}) {@code ~ 0.90}, wireguard-go ({@code J = 2.5}) {@code ~ 0.70}.
 * A ceiling measured at one packet size is read at another by the bytes each size carries per unit of cost.
 *
 * <p>Usage: {@code double bytes = ceilingBytes * PacketSize.scale(Datapath.KERNEL, Direction.DOWNLOAD, 1280, 200);}
 */
public final class PacketSize {
  private PacketSize() {}

  /**
   * A direction carrying less than this share of the tunnel's bytes is the other direction's companion (its TCP
   * ACKs: 2-4 % of the bytes they acknowledge). The reference, a profile and an observed ceiling were measured with
   * that companion riding along, so its small packets are priced as part of the other direction, not on their own.
   */
  public static final double COMPANION_SHARE = 0.1;
  /** The smallest size a packet is read at: an IPv4 header. */
  static final double MIN_PACKET_BYTES = 20;

  /** The share of a {@link ReferenceProfile#BASE_MTU}-byte packet's cost that does not grow with its bytes. */
  public static double perPacketShare(Datapath datapath, Direction d) {
    double r = (double) ReferenceProfile.JUMBO_MTU / ReferenceProfile.BASE_MTU;
    double j = ReferenceProfile.jumboFactor(datapath, ReferenceProfile.JUMBO_MTU, d);
    return r * (1 - 1 / j) / (r - 1);
  }

  /** The cost of one packet of {@code bytes}, in units of a {@link ReferenceProfile#BASE_MTU}-byte packet's. */
  public static double units(Datapath datapath, Direction d, double bytes) {
    double f = perPacketShare(datapath, d);
    return f + (1 - f) * bytes / ReferenceProfile.BASE_MTU;
  }

  /** Bytes carried per unit of cost at this packet size. */
  static double bytesPerUnit(Datapath datapath, Direction d, double bytes) {
    return bytes / units(datapath, d, bytes);
  }

  /** What a byte ceiling measured at packets of {@code fromBytes} becomes at packets of {@code toBytes}. */
  public static double scale(Datapath datapath, Direction d, double fromBytes, double toBytes) {
    return bytesPerUnit(datapath, d, toBytes) / bytesPerUnit(datapath, d, fromBytes);
  }
}
