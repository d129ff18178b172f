package dev.headroom.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real command-line tools tests rely on; a missing tool fails the test loudly, naming the
 * Debian package that brings it.
 *
 * <p>Usage: {@code Tools.Result r = Tools.run(List.of("promtool", "check", "metrics"), text);}
 */
public final class Tools {
  private Tools() {}

  public record Result(int exit, String output) {}

  public static Path require(String tool, String debianPackage) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new AssertionError(tool + " is not installed: this test needs the Debian package '" + debianPackage
        + "' (the README's test command installs it when run as root)");
  }

  public static Result run(List<String> command, String stdin) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      try (OutputStream in = p.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (InputStream s = p.getInputStream()) {
        s.transferTo(out);
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(command + " did not finish in 60 s");
      }
      return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError("cannot run " + command + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** {@code promtool check metrics} on an exposition text: returns promtool's complaints, empty when clean. */
  public static String promtoolCheckMetrics(String exposition) {
    Path promtool = require("promtool", "prometheus");
    Result r = run(List.of(promtool.toString(), "check", "metrics"), exposition);
    return r.exit() == 0 ? r.output().strip() : ("exit " + r.exit() + ": " + r.output()).strip();
  }
}
