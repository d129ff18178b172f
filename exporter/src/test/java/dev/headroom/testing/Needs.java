package dev.headroom.testing;

/**
 * JUnit tags of tests that need more than a JDK: they run in their own phase ({@code mvn verify}, which
 * {@code ./test} runs), so {@code mvn test} alone passes on a developer laptop.
 *
 * <p>Usage: {@code @Tag(Needs.PROMTOOL) @Test void promtoolFindsNothingToLint() { ... }}
 */
public final class Needs {
  private Needs() {}

  /** Root: network namespaces, wireguard-go interfaces. */
  public static final String ROOT = "root";
  /** Debian's promtool (package prometheus). */
  public static final String PROMTOOL = "promtool";
  /** A real Prometheus server (package prometheus). */
  public static final String PROMETHEUS = "prometheus";
  /** The shaded jar (target/headroom.jar), built by {@code mvn package}: these run after it, against it. */
  public static final String SHADED_JAR = "shaded-jar";
}
