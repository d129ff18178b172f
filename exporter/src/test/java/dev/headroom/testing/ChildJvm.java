package dev.headroom.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test's {@code main} in a JVM of its own, on this test run's class path: for what is set once per JVM,
 * as OSHI's roots are, so a fixture peer is read the way a peer is.
 *
 * <p>Usage: {@code String out = ChildJvm.run(GoldenChild.class, "kernel", dir.toString());}
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * The command that runs {@code main} with {@code args} in a new JVM on this test run's class path (surefire's,
   * which holds the test classes too), the JVM options first.
   */
  public static List<String> command(Class<?> main, List<String> jvmOptions, String... args) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
        main.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** The child's standard output; fails the test, with the child's standard error, unless it exits 0 in 60 s. */
  public static String run(Class<?> main, String... args) throws IOException, InterruptedException {
    List<String> cmd = command(main, List.of(), args);
    Path err = Files.createTempFile("child-jvm", ".err");
    try {
      Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
      byte[] out = p.getInputStream().readAllBytes();
      boolean ended = p.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        p.destroyForcibly();
      }
      assertEquals(0, ended ? p.exitValue() : -1, main.getSimpleName() + " " + String.join(" ", args)
          + " failed:\n" + Files.readString(err));
      return new String(out, StandardCharsets.UTF_8);
    } finally {
      Files.deleteIfExists(err);
    }
  }
}
