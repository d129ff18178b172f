package dev.headroom.judge;

import dev.headroom.json.Json;
import dev.headroom.json.JsonWriter;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The file under {@code --path.state} that keeps observed ceilings across restarts: JSON naming its format, the
 * {@link PeerShape} the ceilings were learned under, per direction the rate, when, from how long an episode and at
 * what packet size, and the {@link CostModel}'s running sums. Written whole to a temporary file and renamed over the old one, so a crash leaves the old file or the
 * new, never half of one. A file that is not this format (corrupt, truncated, someone else's) is refused with
 * an {@link IOException} saying why; the caller logs it and starts learning afresh.
 *
 * <p>Usage: {@code Optional<StateFile.Contents> c = StateFile.read(dir.resolve(StateFile.NAME)); StateFile.write(file, learner.contents());}
 */
public final class StateFile {
  /** The file's name in the state directory. */
  public static final String NAME = "observed-ceilings.json";
  /** The value of the {@code format} key: anything else is not ours, or from a version that cannot be read. */
  public static final String FORMAT = "headroom-observed-ceilings-1";

  private StateFile() {}

  /**
   * What the file holds.
   *
   * @param shape    the shape the ceilings were learned under; null when none was seen yet
   * @param cost     the cost model's sums under that shape ({@link CostModel.Sums#EMPTY} for none)
   */
  public record Contents(PeerShape shape, Map<Direction, ObservedCeiling> ceilings, CostModel.Sums cost) {
    public Contents {
      EnumMap<Direction, ObservedCeiling> m = new EnumMap<>(Direction.class);
      m.putAll(ceilings);
      ceilings = java.util.Collections.unmodifiableMap(m);
      cost = cost == null ? CostModel.Sums.EMPTY : cost;
    }
  }

  /** The file's contents; empty when there is no file. */
  public static Optional<Contents> read(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (java.nio.charset.MalformedInputException e) {
      throw problem(file, "not UTF-8 text");
    }
    return Optional.of(parse(file, text));
  }

  static Contents parse(Path file, String text) throws IOException {
    Map<String, Object> root;
    try {
      root = Json.tree(text);
    } catch (Json.JsonException e) {
      throw problem(file, "not JSON (" + e.getMessage() + ")");
    }
    if (root == null) {
      throw problem(file, "empty");
    }
    if (!FORMAT.equals(root.get("format"))) {
      throw problem(file, "not a headroom state file (format is " + quoted(root.get("format")) + ", expected '"
          + FORMAT + "')");
    }
    Map<String, Object> s = map(file, root, "shape");
    PeerShape shape;
    try {
      Datapath dp = Datapath.valueOf(string(file, s, "shape.datapath").toUpperCase(java.util.Locale.ROOT));
      shape = new PeerShape(dp, number(file, s, "shape.usable_cores"), (int) number(file, s, "shape.tunnel_mtu"),
          string(file, s, "shape.cpu_model"));
    } catch (IllegalArgumentException e) {
      throw problem(file, "shape: " + e.getMessage());
    }
    Map<Direction, ObservedCeiling> ceilings = new EnumMap<>(Direction.class);
    Map<String, Object> observed = map(file, root, "observed");
    for (Direction d : Direction.values()) {
      if (observed.get(d.label()) == null) {
        continue; // never learned
      }
      String key = "observed." + d.label();
      Map<String, Object> c = map(file, observed, key);
      ObservedCeiling.From from = ObservedCeiling.From.of(string(file, c, key + ".from"));
      if (from == null) {
        throw problem(file, key + ".from is " + quoted(c.get("from")));
      }
      Instant at;
      try {
        at = Instant.parse(string(file, c, key + ".learned_at"));
      } catch (DateTimeParseException e) {
        throw problem(file, key + ".learned_at is not a UTC time like 2026-12-01T20:30:00Z");
      }
      // Files written before packet sizes were recorded have none: read as full packets.
      double packet = c.get("packet_bytes") == null ? Double.NaN : number(file, c, key + ".packet_bytes");
      if (!Double.isNaN(packet) && !(packet > 0)) {
        throw problem(file, key + ".packet_bytes must be positive, got " + packet);
      }
      try {
        ceilings.put(d, new ObservedCeiling(number(file, c, key + ".bytes_per_second"), at,
            number(file, c, key + ".episode_seconds"), from, packet));
      } catch (IllegalArgumentException e) {
        throw problem(file, key + ": " + e.getMessage());
      }
    }
    return new Contents(shape, ceilings, root.get("cost") == null ? CostModel.Sums.EMPTY : cost(file, root));
  }

  private static CostModel.Sums cost(Path file, Map<String, Object> root) throws IOException {
    Map<String, Object> c = map(file, root, "cost");
    double[] v = new double[COST_KEYS.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = number(file, c, "cost." + COST_KEYS[i]);
    }
    try {
      return new CostModel.Sums(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
          v[13]);
    } catch (IllegalArgumentException e) {
      throw problem(file, "cost: " + e.getMessage());
    }
  }

  /** The cost model's sums under these keys, in {@link CostModel.Sums}'s order. */
  private static final String[] COST_KEYS = {"weight", "down_down", "down_up", "up_up", "cpu_down", "cpu_up",
      "cpu_cpu", "cpu", "down", "up", "bytes_down", "bytes_up", "seconds", "fixed_cores"};

  private static double[] values(CostModel.Sums s) {
    return new double[] {s.w(), s.dd(), s.du(), s.uu(), s.yd(), s.yu(), s.yy(), s.y(), s.d(), s.u(), s.bytesDown(),
        s.bytesUp(), s.seconds(), s.fixedCores()};
  }

  /** Writes the contents atomically (temporary file, then rename); the directory must exist. */
  public static void write(Path file, Contents c) throws IOException {
    JsonWriter w = new JsonWriter().object().field("format", FORMAT);
    if (c.shape() != null) {
      PeerShape s = c.shape();
      w.name("shape").object().field("datapath", s.datapath().label()).field("usable_cores", s.usableCores())
          .field("tunnel_mtu", s.tunnelMtu()).field("cpu_model", s.cpuModel()).end();
    }
    w.name("observed").object();
    for (Map.Entry<Direction, ObservedCeiling> e : c.ceilings().entrySet()) {
      ObservedCeiling o = e.getValue();
      w.name(e.getKey().label()).object().field("bytes_per_second", o.bytesPerSecond())
          .field("learned_at", o.learnedAt().toString()).field("episode_seconds", o.episodeSeconds())
          .field("from", o.from().label());
      if (!Double.isNaN(o.packetBytes())) {
        w.field("packet_bytes", o.packetBytes());
      }
      w.end();
    }
    w.end();
    if (c.cost().w() > 0 || c.cost().fixedCores() > 0) {
      w.name("cost").object();
      double[] v = values(c.cost());
      for (int i = 0; i < v.length; i++) {
        w.field(COST_KEYS[i], v[i]);
      }
      w.end();
    }
    w.end();
    ProfileFile.replace(file.toAbsolutePath(), w + "\n");
  }

  private static IOException problem(Path file, String what) {
    return new IOException("state file " + file + ": " + what);
  }

  private static String quoted(Object v) {
    return v == null ? "missing" : "'" + v + "'";
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Path file, Map<String, Object> m, String key) throws IOException {
    Object v = m.get(key.substring(key.lastIndexOf('.') + 1));
    if (!(v instanceof Map<?, ?>)) {
      throw problem(file, key + (v == null ? " is missing" : " is not an object"));
    }
    return (Map<String, Object>) v;
  }

  private static String string(Path file, Map<String, Object> m, String key) throws IOException {
    Object v = m.get(key.substring(key.lastIndexOf('.') + 1));
    if (!(v instanceof String s)) {
      throw problem(file, key + (v == null ? " is missing" : " is not a string"));
    }
    return s;
  }

  private static double number(Path file, Map<String, Object> m, String key) throws IOException {
    Object v = m.get(key.substring(key.lastIndexOf('.') + 1));
    if (!(v instanceof Number n)) {
      throw problem(file, key + (v == null ? " is missing" : " is not a number"));
    }
    return n.doubleValue();
  }
}
