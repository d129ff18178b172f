package dev.headroom.judge;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads the recorded traces in src/test/resources/traces (see generate.py there). */
final class Traces {
  private Traces() {}

  /** Rows of {seconds, bytes per second}. */
  static List<double[]> read(String name) throws IOException {
    InputStream in = Traces.class.getResourceAsStream("/traces/" + name);
    if (in == null) {
      throw new IllegalStateException("test resource /traces/" + name + " is missing; run generate.py there");
    }
    List<double[]> rows = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String header = r.readLine();
      if (!"seconds,bytes_per_second".equals(header)) {
        throw new IllegalStateException(name + ": unexpected header " + header);
      }
      for (String line; (line = r.readLine()) != null; ) {
        String[] f = line.split(",");
        rows.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])});
      }
    }
    return rows;
  }
}
