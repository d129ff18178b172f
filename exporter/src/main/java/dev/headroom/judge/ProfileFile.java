package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Properties;

/**
 * Reads and writes a measured profile as a {@code java.util.Properties} file:
 * <pre>
 * download.bytes_per_second=2500000000
 * download.limit=cores_saturated
 * download.packet_bytes=1252
 * upload.bytes_per_second=1875000000
 * upload.limit=cores_saturated
 * upload.packet_bytes=1249
 * measured.cores=16
 * measured.datapath=kernel
 * measured.mtu=1280
 * measured.at=2026-11-30T02:54:45Z
 * </pre>
 * A direction that was not measured has no keys; a file without {@code packet_bytes} was measured at full packets
 * of {@code measured.mtu}. Bad content throws {@link ProfileFileException} naming the key.
 *
 * <p>Usage: {@code Optional<MeasuredProfile> p = ProfileFile.readIfPresent(Path.of("/var/lib/headroom/ceiling.properties"));}
 */
public final class ProfileFile {
  private ProfileFile() {}

  /** Reads a profile file; a missing file is an error. */
  public static MeasuredProfile read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IllegalArgumentException e) {
      throw new ProfileFileException(file, null, "not a properties file (" + e.getMessage() + ")");
    }
    return parse(file, p);
  }

  /** Reads a profile file when it exists; empty when it does not. */
  public static Optional<MeasuredProfile> readIfPresent(Path file) throws IOException {
    return Files.exists(file) ? Optional.of(read(file)) : Optional.empty();
  }

  /** Writes a profile atomically (temp file and rename), creating the parent directory. */
  public static void write(Path file, MeasuredProfile profile) throws IOException {
    StringWriter w = new StringWriter();
    w.write("# headroom measured ceiling: inner tunnel bytes per second per direction, and the conditions\n");
    w.write("# it was measured under. Written by `headroom profile`; ignored when cores, datapath or MTU differ.\n");
    for (Direction d : Direction.values()) {
      OptionalDouble c = profile.ceiling(d);
      if (c.isPresent()) {
        w.write(d.label() + ".bytes_per_second=" + Math.round(c.getAsDouble()) + "\n");
        w.write(d.label() + ".limit=" + limitLabel(profile.limit(d)) + "\n");
        double packet = profile.directions().get(d).packetBytes();
        if (!Double.isNaN(packet)) {
          w.write(d.label() + ".packet_bytes=" + Math.round(packet) + "\n");
        }
      }
    }
    w.write("measured.cores=" + profile.cores() + "\n");
    w.write("measured.datapath=" + profile.datapath().label() + "\n");
    w.write("measured.mtu=" + profile.tunnelMtu() + "\n");
    if (profile.measuredAt() != null) {
      w.write("measured.at=" + profile.measuredAt() + "\n");
    }
    Path abs = file.toAbsolutePath();
    if (abs.getParent() != null) {
      Files.createDirectories(abs.getParent());
    }
    replace(abs, w.toString());
  }

  /**
   * Writes {@code text} to a temporary file beside {@code file} and renames it over {@code file}, so a crash leaves
   * the old file or the new, never half of one (the state file's write too).
   */
  static void replace(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    try {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static MeasuredProfile parse(Path file, Properties p) throws ProfileFileException {
    OptionalDouble down = rate(file, p, "download.bytes_per_second");
    OptionalDouble up = rate(file, p, "upload.bytes_per_second");
    if (down.isEmpty() && up.isEmpty()) {
      throw new ProfileFileException(file, "download.bytes_per_second",
          "missing (neither download.bytes_per_second nor upload.bytes_per_second is set)");
    }
    Cause downLimit = limit(file, p, "download.limit");
    Cause upLimit = limit(file, p, "upload.limit");
    int cores = positiveInt(file, p, "measured.cores");
    Datapath datapath = datapath(file, p, "measured.datapath");
    int mtu = positiveInt(file, p, "measured.mtu");
    Instant at = null;
    String atText = value(p, "measured.at");
    if (atText != null) {
      try {
        at = Instant.parse(atText);
      } catch (DateTimeParseException e) {
        throw new ProfileFileException(file, "measured.at", "'" + atText + "' is not an RFC 3339 UTC time like 2026-11-30T02:54:45Z");
      }
    }
    return new MeasuredProfile(new PerDirection<>(
        new MeasuredProfile.Measured(down, downLimit, packetBytes(file, p, "download.packet_bytes", mtu)),
        new MeasuredProfile.Measured(up, upLimit, packetBytes(file, p, "upload.packet_bytes", mtu))),
        cores, datapath, mtu, at);
  }

  private static String value(Properties p, String key) {
    String v = p.getProperty(key);
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static OptionalDouble rate(Path file, Properties p, String key) throws ProfileFileException {
    String v = value(p, key);
    if (v == null) {
      return OptionalDouble.empty();
    }
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new ProfileFileException(file, key, "'" + v + "' is not a number of bytes per second");
    }
    if (!(d > 0) || Double.isInfinite(d)) {
      throw new ProfileFileException(file, key, "'" + v + "' must be a positive number of bytes per second");
    }
    return OptionalDouble.of(d);
  }

  /** A recorded mean packet size: from an IPv4 header to the tunnel MTU; NaN when the key is absent. */
  private static double packetBytes(Path file, Properties p, String key, int mtu) throws ProfileFileException {
    String v = value(p, key);
    if (v == null) {
      return Double.NaN;
    }
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new ProfileFileException(file, key, "'" + v + "' is not a number of bytes");
    }
    if (!(d >= PacketSize.MIN_PACKET_BYTES && d <= mtu)) {
      throw new ProfileFileException(file, key, "'" + v + "' must be a packet size from "
          + (int) PacketSize.MIN_PACKET_BYTES + " bytes to the MTU, " + mtu);
    }
    return d;
  }

  /**
   * The causes a profile can end in, written as the daemon names them everywhere ({@link Cause#label()}:
   * {@code download.limit=cores_saturated}); nothing on the peer full is {@code room}.
   */
  private static final List<Cause> LIMITS =
      List.of(Cause.CORES_SATURATED, Cause.LINK_FULL, Cause.AT_CEILING, Cause.ONE_TUNNEL_CORE, Cause.ROOM);
  /** The words files written before the daemon's vocabulary was used there say for the same causes. */
  private static final List<String> OLD_WORDS = List.of("cpu", "link", "at_ceiling", "single_tunnel", "unknown");

  /** The file's word for what stopped a direction rising: the cause's own label. */
  public static String limitLabel(Cause limit) {
    return (LIMITS.contains(limit) ? limit : Cause.ROOM).label();
  }

  private static Cause limit(Path file, Properties p, String key) throws ProfileFileException {
    String v = value(p, key);
    if (v == null) {
      return Cause.ROOM;
    }
    String word = v.toLowerCase(Locale.ROOT);
    for (int i = 0; i < LIMITS.size(); i++) {
      if (LIMITS.get(i).label().equals(word) || OLD_WORDS.get(i).equals(word)) {
        return LIMITS.get(i);
      }
    }
    throw new ProfileFileException(file, key, "'" + v + "' is not one of "
        + String.join(", ", LIMITS.stream().map(Cause::label).toList()));
  }

  private static int positiveInt(Path file, Properties p, String key) throws ProfileFileException {
    String v = value(p, key);
    if (v == null) {
      throw new ProfileFileException(file, key, "missing");
    }
    try {
      int i = Integer.parseInt(v);
      if (i < 1) {
        throw new ProfileFileException(file, key, "'" + v + "' must be a positive whole number");
      }
      return i;
    } catch (NumberFormatException e) {
      throw new ProfileFileException(file, key, "'" + v + "' is not a whole number");
    }
  }

  private static Datapath datapath(Path file, Properties p, String key) throws ProfileFileException {
    String v = value(p, key);
    if (v == null) {
      throw new ProfileFileException(file, key, "missing");
    }
    for (Datapath d : List.of(Datapath.KERNEL, Datapath.USERSPACE, Datapath.NETSTACK)) {
      if (d.label().equals(v.toLowerCase(Locale.ROOT))) {
        return d;
      }
    }
    throw new ProfileFileException(file, key, "'" + v + "' is not kernel, userspace or netstack");
  }
}
