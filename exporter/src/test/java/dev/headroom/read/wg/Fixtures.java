package dev.headroom.read.wg;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Loads test fixtures from {@code src/test/resources/census/}. */
final class Fixtures {
  private Fixtures() {}

  static String read(String name) {
    String path = "/census/" + name;
    try (InputStream in = Fixtures.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing test fixture " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
