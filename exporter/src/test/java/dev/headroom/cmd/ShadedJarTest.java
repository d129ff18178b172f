package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.serve.web.Pem;
import dev.headroom.testing.Needs;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the shaded jar leaves out, checked on the jar itself: the JVM keeps every open jar's central directory on
 * the heap, so entries a Linux peer never loads are resident memory spent for nothing. Runs in the shaded-jar
 * phase of {@code mvn verify}, with the jar (and no dependency jars) on the class path, next to the PEM and OSHI
 * tests that prove what is left still works.
 */
@Tag(Needs.SHADED_JAR)
class ShadedJarTest {
  /**
   * 16.5k entries with every dependency whole, 7.9k once other systems' code (1.6k) and the BouncyCastle classes
   * PEM reading never reaches (7k) are out. The bound leaves room for dependency upgrades, not for either to
   * come back.
   */
  static final int MAX_ENTRIES = 8_500;

  static Path jar() throws URISyntaxException {
    Path p = Path.of(Pem.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(p.toString().endsWith(".jar"),
        "headroom's classes come from " + p + ", not the shaded jar: run this test with mvn verify");
    return p;
  }

  static List<String> entries() throws Exception {
    try (JarFile jar = new JarFile(jar().toFile())) {
      return jar.stream().map(ZipEntry::getName).toList();
    }
  }

  @Test
  void holdsNoCodeOrNativesForOtherOperatingSystems() throws Exception {
    List<String> foreign = entries().stream()
        .filter(n -> n.matches("com/sun/jna/(win32|darwin|sunos|aix|freebsd|openbsd|dragonflybsd)-.*")
            || n.matches("com/sun/jna/platform/(win32|mac|wince)/.*")
            || n.matches("oshi/.*/(windows|mac|unix/(freebsd|openbsd|solaris|aix))/.*"))
        .toList();
    assertEquals(List.of(), foreign.stream().limit(10).toList(), foreign.size() + " entries for other systems");
  }

  @Test
  void keepsJnaNativesForTheLinuxPeersItRunsOn() throws Exception {
    List<String> names = entries();
    for (String arch : List.of("linux-x86-64", "linux-aarch64", "linux-arm")) {
      assertTrue(names.contains("com/sun/jna/" + arch + "/libjnidispatch.so"), "no JNA native for " + arch);
    }
  }

  @Test
  void entryCountStaysUnderTheBound() throws Exception {
    int n = entries().size();
    assertTrue(n <= MAX_ENTRIES, "the shaded jar has " + n + " entries, more than " + MAX_ENTRIES
        + ": a dependency grew, or a shade filter in exporter/pom.xml stopped matching");
  }

  @Test
  void bouncyCastleComesOnlyFromTheShadedJar() throws IOException {
    // The PEM tests in this phase prove the cut-down BouncyCastle reads every key kind only if the full jars
    // are not on the class path beside it.
    Path bc = Path.of(org.bouncycastle.openssl.PEMParser.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    assertTrue(bc.getFileName().toString().equals("headroom.jar"), "PEMParser loaded from " + bc);
  }
}
